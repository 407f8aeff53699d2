// swift-tools-version:6.0
import PackageDescription

// swiftdash: a WidgetKit-style home screen for the terminal.
// Module boundaries follow docs/decisions.md and ../shared/DESIGN.md:
// only DashCurses touches ncurses; DashWidgets, DashScheduler and DashRender
// never read the clock, the file system or the network.
let package = Package(
    name: "swiftdash",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "swiftdash", targets: ["swiftdash"]),
        // Performs one HTTP request for swiftdash: keeps libcurl and TLS out of the home screen.
        .executable(name: "swiftdash-fetch", targets: ["swiftdash-fetch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CNcursesw",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        .target(name: "DashCore"),
        .target(name: "DashWidgets"),
        .target(name: "DashScheduler", dependencies: ["DashWidgets"]),
        .target(name: "DashRender", dependencies: ["DashCore", "DashWidgets"]),
        .target(
            name: "DashApp",
            dependencies: [
                "DashCore", "DashWidgets", "DashScheduler", "DashRender",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "DashCurses", dependencies: ["DashCore", "CNcursesw"]),
        .target(name: "DashBuiltinWidgets", dependencies: ["DashWidgets"]),
        // The only module that imports FoundationNetworking (URLSession, libcurl).
        .target(name: "DashNetworking", dependencies: ["DashBuiltinWidgets"]),
        .executableTarget(name: "swiftdash-fetch", dependencies: ["DashNetworking", "DashBuiltinWidgets"]),
        .target(
            name: "DashTestSupport",
            dependencies: ["DashCore", "DashWidgets", "DashRender", "DashScheduler", "DashApp"]
        ),
        .executableTarget(
            name: "swiftdash",
            dependencies: [
                "DashCore", "DashWidgets", "DashScheduler", "DashRender", "DashApp",
                "DashCurses", "DashBuiltinWidgets",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "DashCoreTests", dependencies: ["DashCore", "DashTestSupport"]),
        .testTarget(name: "DashWidgetsTests", dependencies: ["DashWidgets"]),
        .testTarget(name: "DashCursesTests", dependencies: ["DashCurses", "DashCore"]),
        .testTarget(
            name: "DashRenderTests",
            dependencies: ["DashRender", "DashWidgets", "DashCore", "DashTestSupport", "DashBuiltinWidgets"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "DashSchedulerTests",
            dependencies: ["DashScheduler", "DashWidgets", "DashTestSupport"]
        ),
        .testTarget(
            name: "DashAppTests",
            dependencies: [
                "DashApp", "DashCore", "DashWidgets", "DashScheduler", "DashRender", "DashTestSupport",
                "DashBuiltinWidgets",
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "DashBuiltinWidgetsTests",
            dependencies: [
                "DashBuiltinWidgets", "DashNetworking", "DashWidgets", "DashRender", "DashCore", "DashTestSupport",
                "swiftdash-fetch",
            ],
            exclude: ["__Snapshots__", "Fixtures"]
        ),
        .testTarget(name: "SwiftdashCLITests", dependencies: ["swiftdash", "DashTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["swiftdash", "DashCore", "DashTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
