// swift-tools-version:6.0
// A swiftdash extension in Swift: its own package, outside swiftdash's. Build with
// `swift build -c release` and list .build/release/swift-hello under `extensions:` in home.yaml.
import PackageDescription

let package = Package(
    name: "swift-hello",
    targets: [.executableTarget(name: "swift-hello")]
)
