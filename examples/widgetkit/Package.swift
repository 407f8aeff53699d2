// swift-tools-version:6.1
// The seeds' WidgetKit listings (../shared/seeds: the WidgetKit chapter, a NewsApp widget, a commit
// checker, a headlines widget) built against SwiftdashKit: each listing's imports became
// `import SwiftdashKit`, and NOTES.md says every other line and why. One package with several
// products keeps the test suite's build short. Build with
//   swift build -c release --package-path examples/widgetkit
// and list .build/release/commit-checker (for one) under `extensions:` in home.yaml.
import PackageDescription

// A path dependency is named by its folder: the swiftdash checkout two levels up, whatever it is called.
let swiftdash = String(#filePath.split(separator: "/").dropLast(3).last ?? "swiftdash")
let kit: Target.Dependency = .product(name: "SwiftdashKit", package: swiftdash)
// What a widget extension imports on Apple's systems, offered by swiftdash on Linux.
let frameworks: [Target.Dependency] = ["WidgetKit", "SwiftUI", "AppIntents", "ActivityKit"].map {
    .product(name: $0, package: swiftdash)
}

let package = Package(
    name: "widgetkit-seeds",
    products: [
        .executable(name: "crypto-widget", targets: ["CryptoWidget"]),
        .executable(name: "stories-widget", targets: ["StoriesWidget"]),
        .executable(name: "commit-checker", targets: ["CommitChecker"]),
        .executable(name: "headlines-widget", targets: ["HeadlinesWidget"]),
        .executable(name: "pocket-widgets", targets: ["PocketWidgets"]),
    ],
    // The `Previews` trait: `#Preview` blocks compile (its macro builds swift-syntax once).
    dependencies: [.package(path: "../..", traits: ["Previews"])],
    targets: [
        // WidgetKit code of 2020 is Swift 5 code (completion handlers, shared model objects).
        .executableTarget(
            name: "CryptoWidget", dependencies: [kit],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "StoriesWidget", dependencies: [kit],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "CommitChecker", dependencies: [kit],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "HeadlinesWidget", dependencies: [kit],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Widgets in the census's most common shapes (docs/sdk-census.md), written with the imports
        // of a widget extension on Apple's systems and nothing changed.
        .executableTarget(
            name: "PocketWidgets", dependencies: frameworks,
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
