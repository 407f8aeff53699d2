// swift-tools-version:6.1
import PackageDescription

// swiftdash: a WidgetKit-style home screen for the terminal.
// Module boundaries follow docs/decisions.md and ../shared/DESIGN.md:
// only DashCurses touches ncurses; DashWidgets, DashScheduler and DashRender
// never read the clock, the file system or the network.

// The home screen's release link on Linux (docs/measuring.md, "Working set"; decision 40):
// - lld puts every function that startup and an idle minute run side by side (link-order.txt,
//   made by Tests/perf/link_order.py), so fewer 64 KB windows of code are faulted in;
// - -z pack-relative-relocs: 85,000 relative relocations in 17 KB instead of 2 MB;
// - --no-export-dynamic: nothing loads plugins into the home screen, and a 10,000-symbol
//   dynamic table is searched by ld.so for every symbol libc and libstdc++ look up.
// Small on disk (issue 35, decision 62; docs/measuring.md, "On disk"):
// - --icf=all: identical functions (generic specialisations, thunks) kept once: -0.9 MB;
//   only code is folded (lld leaves data alone), and nothing compares function addresses;
// - release-link.ld drops .eh_frame and --no-eh-frame-hdr its index: -3.9 MB of unwind tables
//   that nothing reads (Swift's errors are return values, the C++ in the runtime and ICU is built
//   without exceptions, and a crash's backtrace walks frame pointers).
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))
let smallOnDisk = [
    "-Xlinker", "--icf=all", "-Xlinker", "\(packageDirectory)/Sources/swiftdash/release-link.ld",
    "-Xlinker", "--no-eh-frame-hdr",
]
let homeScreenReleaseLink =
    [
        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/swiftdash/link-order.txt",
        "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic",
    ] + smallOnDisk
// The swiftdash-fetch product gets the same savings; it has no order file. The package installs
// swiftdash-fetch as a link to swiftdash (one program, decision 62): this product is the build's and
// the tests' copy.
let hostReleaseLink =
    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"]
    + smallOnDisk
// FoundationNetworking asks the linker for libcurl; CCurlLoader defines the functions it calls and
// opens libcurl with dlopen at the first request, so no module that imports it names libcurl.
let curlLoadedOnDemand: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-autolink-library", "-Xfrontend", "curl"], .when(platforms: [.linux]))
]
// Each function in its own section, so the link order above can place it (release, Linux).
let releaseSections: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release))
]
// Code that runs once per command or per change of home.yaml, never per frame: optimised for size
// (the package's 30 MB; issue 35). The loop, the renderer and the widgets keep -O.
let sizeOverSpeed: [SwiftSetting] = [
    .unsafeFlags(["-Osize"], .when(platforms: [.linux], configuration: .release))
]

// `import WidgetKit`, `SwiftUI`, `AppIntents` and `Intents` in a widget's files resolve to SwiftdashKit
// on Linux (docs/widgetkit.md, "Zero edits"): a library per framework that re-exports it.
#if os(Linux)
    let frameworkNames = ["WidgetKit", "SwiftUI", "AppIntents", "Intents", "ActivityKit"]
#else
    let frameworkNames: [String] = []
#endif
// `import OSLog`: the unified log's `Logger`, written to standard error (not SwiftdashKit: a widget that
// also uses swift-log's Logger keeps one `Logger` in scope). No `os` module: packages test
// `canImport(os)` to mean Darwin (swift-argument-parser does).
#if os(Linux)
    let logNames = ["OSLog"]
#else
    let logNames: [String] = []
#endif
let frameworkProducts: [Product] = (frameworkNames + logNames).map { .library(name: $0, targets: [$0]) }
let frameworkTargets: [Target] =
    frameworkNames.map {
        .target(name: $0, dependencies: ["SwiftdashKit"], path: "Sources/Frameworks/\($0)")
    }
    + logNames.map { .target(name: $0, path: "Sources/Frameworks/\($0)") }

let package = Package(
    name: "swiftdash",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "swiftdash", targets: ["swiftdash"]),
        // Performs one HTTP request for swiftdash: keeps libcurl and TLS out of the home screen.
        .executable(name: "swiftdash-fetch", targets: ["swiftdash-fetch"]),
        // Widgets written the way WidgetKit teaches (docs/widgetkit.md): a widget package depends on this.
        .library(name: "SwiftdashKit", targets: ["SwiftdashKit"]),
    ] + frameworkProducts,
    // `#Preview` in widget packages (decision 61): a widget package turns the trait on
    // (`.package(path: …, traits: ["Previews"])`); swiftdash's own build does not, and so never
    // builds swift-syntax.
    traits: [.trait(name: "Previews", description: "#Preview in widget code: builds swift-syntax for its macro")],
    dependencies: [
        .package(path: "Sources/PreviewMacros"),
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
        .target(name: "DashCore", swiftSettings: releaseSections),
        // The one atomic file writer (temp file, fsync, rename, fsync of the folder).
        .target(name: "DashFiles", swiftSettings: releaseSections),
        // The commit `swiftdash --version` names; `make` defines it, a plain `swift build` leaves it empty.
        .target(name: "DashBuildInfo"),
        .target(name: "DashWidgets", swiftSettings: releaseSections),
        // Starting processes: glibc's posix_spawn helpers (the command widget, extensions, secrets, tmux).
        .target(name: "DashSpawn", swiftSettings: releaseSections),
        .target(name: "DashScheduler", dependencies: ["DashWidgets"], swiftSettings: releaseSections),
        .target(name: "DashRender", dependencies: ["DashCore", "DashWidgets"], swiftSettings: releaseSections),
        // home.yaml as pure values: the model, limits, validation, minimal editing, ids, themes (text in,
        // text out; no file is read here).
        .target(
            name: "DashHome",
            dependencies: [
                "DashCore", "DashWidgets", "DashScheduler",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: releaseSections + sizeOverSpeed
        ),
        // home.yaml on disk: the file, its lock, the ids store, reading themes and checking files.
        // Only the runtime and the commands import it.
        .target(
            name: "DashHomeFiles",
            dependencies: [
                "DashCore", "DashWidgets", "DashHome", "DashFiles", .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: releaseSections + sizeOverSpeed
        ),
        // Live Activities as pure values (issue 39): the model, its limits on a clock passed in, the
        // built-in kinds' faces, the output scanner of `swiftdash run`, the strip and the detail view.
        .target(name: "DashActivities", dependencies: ["DashCore", "DashWidgets"], swiftSettings: releaseSections),
        // The activities on disk (the state folder's activities.json, its lock).
        .target(
            name: "DashActivityFiles", dependencies: ["DashActivities", "DashFiles"], swiftSettings: releaseSections),
        // The pure core: state, Msg, update, view, the panes. No file, process, socket or thread API.
        .target(
            name: "DashApp",
            dependencies: ["DashCore", "DashWidgets", "DashScheduler", "DashRender", "DashHome", "DashActivities"],
            swiftSettings: releaseSections
        ),
        // The loop, the provider-host client, extension processes, watchers, the control socket, the stores.
        .target(
            name: "DashRuntime",
            dependencies: [
                "DashCore", "DashWidgets", "DashScheduler", "DashRender", "DashHome", "DashHomeFiles", "DashApp",
                "DashFiles", "DashSpawn", "DashUnixSocket", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: releaseSections
        ),
        .target(name: "DashCurses", dependencies: ["DashCore", "CNcursesw"], swiftSettings: releaseSections),
        .target(name: "DashBuiltinWidgets", dependencies: ["DashCore", "DashWidgets", "DashFiles", "DashSpawn"], swiftSettings: releaseSections + sizeOverSpeed),
        // A Unix socket's address by path: the control socket's and WidgetCenter's (SwiftdashKit).
        .target(name: "DashUnixSocket", swiftSettings: releaseSections),
        .target(
            name: "SwiftdashKit",
            dependencies: [
                "DashWidgets", "DashUnixSocket", "DashActivities", "DashActivityFiles",
                .product(
                    name: "SwiftdashPreviewPlugin", package: "PreviewMacros", condition: .when(traits: ["Previews"])),
            ]),
        // The only module of the home screen and its host that imports FoundationNetworking (URLSession,
        // libcurl); SwiftdashKit re-exports it for widget packages.
        .target(
            name: "DashNetworking", dependencies: ["DashBuiltinWidgets", "CCurlLoader"], swiftSettings: curlLoadedOnDemand),
        // libcurl's functions, opened with dlopen by the first request (issue 35).
        .target(name: "CCurlLoader"),
        // The ICU data swiftdash uses, 3 MB of the toolchain's 34 MB (trim_icu_data.py; issue 35).
        .target(name: "CICUData", exclude: ["trim_icu_data.py", "include/swiftdash-icudt76l.dat"]),
        .executableTarget(
            name: "swiftdash-fetch", dependencies: ["DashNetworking", "DashBuiltinWidgets", "CICUData"],
            swiftSettings: curlLoadedOnDemand,
            linkerSettings: [.unsafeFlags(hostReleaseLink, .when(platforms: [.linux], configuration: .release))]
        ),
        .target(
            name: "DashTestSupport",
            dependencies: [
                "DashCore", "DashWidgets", "DashRender", "DashScheduler", "DashHome", "DashHomeFiles", "DashApp",
                "DashRuntime",
            ]
        ),
        .executableTarget(
            name: "swiftdash",
            dependencies: [
                "DashCore", "DashWidgets", "DashScheduler", "DashRender", "DashHome", "DashHomeFiles", "DashApp",
                "DashRuntime", "DashCurses", "DashBuiltinWidgets", "DashBuildInfo", "DashFiles",
                "DashNetworking", "CICUData", "DashActivities", "DashActivityFiles", "DashSpawn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["link-order.txt", "release-link.ld"],
            swiftSettings: releaseSections + curlLoadedOnDemand + sizeOverSpeed,
            linkerSettings: [.unsafeFlags(homeScreenReleaseLink, .when(platforms: [.linux], configuration: .release))]
        ),
        .testTarget(name: "DashCoreTests", dependencies: ["DashCore", "DashTestSupport"]),
        .testTarget(name: "DashWidgetsTests", dependencies: ["DashWidgets"]),
        .testTarget(
            name: "DashActivitiesTests",
            dependencies: ["DashActivities", "DashActivityFiles", "DashCore", "DashWidgets", "DashScheduler", "DashTestSupport"],
            exclude: ["__Snapshots__"]
        ),
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
                "DashApp", "DashHome", "DashHomeFiles", "DashRuntime", "DashCore", "DashWidgets", "DashScheduler",
                "DashRender", "DashTestSupport", "DashBuiltinWidgets", "DashActivities",
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "DashHomeTests",
            dependencies: ["DashHome", "DashCore", "DashWidgets", "DashBuiltinWidgets", "DashTestSupport"]
        ),
        .testTarget(
            name: "DashFilesTests",
            dependencies: [
                "DashFiles", "DashHome", "DashHomeFiles", "DashCore", "DashWidgets", "DashBuiltinWidgets",
                "DashTestSupport",
            ]
        ),
        .testTarget(
            name: "DashRuntimeTests",
            dependencies: [
                "DashRuntime", "DashApp", "DashHome", "DashHomeFiles", "DashCore", "DashWidgets", "DashScheduler",
                "DashRender", "DashTestSupport", "DashBuiltinWidgets", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The harness's own tests, beside it: it drives the real runtime and is exhaustive about work.
        .testTarget(
            name: "DashTestSupportTests",
            dependencies: [
                "DashTestSupport", "DashApp", "DashHome", "DashHomeFiles", "DashRuntime", "DashCore", "DashWidgets",
                "DashBuiltinWidgets",
            ]
        ),
        .testTarget(
            name: "DashBuiltinWidgetsTests",
            dependencies: [
                "DashBuiltinWidgets", "DashNetworking", "DashWidgets", "DashRender", "DashCore", "DashTestSupport",
                "DashHome", "DashApp", "swiftdash-fetch",
            ],
            exclude: ["__Snapshots__", "Fixtures"]
        ),
        // A widget package's code on SwiftdashKit, run as an extension by the tests (examples/widgetkit
        // is a package of its own; this one is built with the tests).
        .executableTarget(name: "swiftdashkit-fixture", dependencies: ["SwiftdashKit"], path: "Tests/KitFixture"),
        // Swift 5 mode: the census's widget code (CensusWidgets.swift) is Swift 5 code, as Xcode's
        // widget template writes it (`static var title`, shared model objects).
        .testTarget(
            name: "SwiftdashKitTests",
            dependencies: ["SwiftdashKit", "DashWidgets"] + (frameworkNames + logNames).map { .target(name: $0) },
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "SwiftdashCLITests", dependencies: ["swiftdash", "DashTestSupport", "DashFiles", "DashHomeFiles"], exclude: ["__Snapshots__"]),
        .testTarget(name: "EndToEndTests", dependencies: ["swiftdash", "DashCore", "DashTestSupport"]),
    ] + frameworkTargets,
    swiftLanguageModes: [.v6]
)
