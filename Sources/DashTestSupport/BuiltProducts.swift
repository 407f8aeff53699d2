import Foundation

/// An executable that `swift build` put beside the test bundle (in .build/<config>/),
/// looked for up to a few folders up; nil when it was not built.
public func builtProduct(_ name: String) -> URL? {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let exe = dir.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: exe.path) { return exe }
        dir = dir.deletingLastPathComponent()
    }
    return nil
}

/// The repository's `examples/extensions` folder: the shipped example extensions.
public let exampleExtensions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples/extensions")
