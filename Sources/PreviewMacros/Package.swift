// swift-tools-version:6.0
import CompilerPluginSupport
import PackageDescription

// `#Preview` for widget packages (docs/widgetkit.md, "Previews"; decision 61): the macro's
// compiler plugin, built with swift-syntax. A package of its own so that only what expands
// `#Preview` pays for swift-syntax: swiftdash's Package.swift depends on it under its `Previews`
// trait (which widget packages turn on), and the installed SDK always.
let package = Package(
    name: "swiftdash-previews",
    products: [.library(name: "SwiftdashPreviewPlugin", targets: ["SwiftdashPreviewPlugin"])],
    dependencies: [.package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0")],
    targets: [
        .macro(
            name: "SwiftdashPreviewMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            path: "Macro"),
        // What a module that declares `#Preview` depends on, so that the plugin is built and handed
        // to the compiler of every module that expands it.
        .target(name: "SwiftdashPreviewPlugin", dependencies: ["SwiftdashPreviewMacros"], path: "Plugin"),
    ]
)
