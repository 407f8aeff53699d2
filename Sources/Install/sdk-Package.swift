// swift-tools-version:6.1
import PackageDescription

// The swiftdash SDK: what `make install` puts at PREFIX/share/swiftdash/sdk, so a widget package
// written by `swiftdash new-widget` builds against the swiftdash it was installed with
// (docs/widgetkit.md). The sources are the swiftdash repository's, in the same folders; this
// manifest is kept in the repository as Sources/Install/sdk-Package.swift and declares only the
// library a widget uses and the modules it needs.

// `import WidgetKit`, `SwiftUI`, `AppIntents`, `Intents` and `ActivityKit` resolve to SwiftdashKit
// on Linux, and `import OSLog` to a Logger that writes to standard error (as in swiftdash's own
// Package.swift).
#if os(Linux)
    let frameworkNames = ["WidgetKit", "SwiftUI", "AppIntents", "Intents", "ActivityKit"]
    let logNames = ["OSLog"]
#else
    let frameworkNames: [String] = []
    let logNames: [String] = []
#endif
let frameworkProducts: [Product] = (frameworkNames + logNames).map { .library(name: $0, targets: [$0]) }
let frameworkTargets: [Target] =
    frameworkNames.map {
        .target(name: $0, dependencies: ["SwiftdashKit"], path: "Sources/Frameworks/\($0)")
    }
    + logNames.map { .target(name: $0, path: "Sources/Frameworks/\($0)") }

let package = Package(
    name: "swiftdash-sdk",
    platforms: [.macOS(.v13)],
    products: [
        // Widgets written the way WidgetKit teaches: a widget package depends on this.
        .library(name: "SwiftdashKit", targets: ["SwiftdashKit"])
    ] + frameworkProducts,
    // `#Preview` compiles in a widget's files with this trait on (`.package(path: SDK, traits:
    // ["Previews"])`): its macro builds swift-syntax once per widget package's build folder, so
    // only a package whose code has `#Preview` asks for it (decision 61).
    traits: [.trait(name: "Previews", description: "#Preview in widget code: builds swift-syntax for its macro")],
    dependencies: [.package(path: "Sources/PreviewMacros")],
    targets: [
        .target(name: "DashWidgets"),
        .target(name: "DashUnixSocket"),
        // Live Activities (ActivityKit's `Activity.request`, issue 39): the model and its file.
        .target(name: "DashCore"),
        .target(name: "DashFiles"),
        .target(name: "DashActivities", dependencies: ["DashCore", "DashWidgets"]),
        .target(name: "DashActivityFiles", dependencies: ["DashActivities", "DashFiles"]),
        .target(
            name: "SwiftdashKit",
            dependencies: [
                "DashWidgets", "DashUnixSocket", "DashActivities", "DashActivityFiles",
                .product(
                    name: "SwiftdashPreviewPlugin", package: "PreviewMacros", condition: .when(traits: ["Previews"])),
            ]),
    ] + frameworkTargets,
    swiftLanguageModes: [.v6]
)
