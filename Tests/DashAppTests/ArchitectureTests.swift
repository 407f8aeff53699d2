import XCTest
import Foundation

/// The house rules the compiler cannot check alone (docs/architecture.md): the pure core touches no
/// file, process, socket or thread API; no source file over 500 lines; no folder with more than 20
/// source files directly in it. The package graph already keeps DashApp from importing the runtime.
final class ArchitectureTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    static func swiftFiles(under dir: URL) -> [URL] {
        let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
        return (e?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    func testThePureCoreUsesNoFileProcessSocketOrThreadAPI() throws {
        let forbidden = [
            "FileManager", "FileHandle", "fopen(", "Glibc", "Darwin", "Thread", "DispatchQueue", "NSLock",
            "NSCondition", "pthread_", "posix_spawn", "Process(", "socket(", "fsync(", "inotify", "usleep(",
            "contentsOfFile", "contentsOf: URL", "write(to:", "ProcessInfo", "getenv(", "Date()",
        ]
        var found: [String] = []
        for file in Self.swiftFiles(under: Self.sources.appendingPathComponent("DashApp")) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            for (n, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for word in forbidden where line.contains(word) {
                    found.append("\(file.lastPathComponent):\(n + 1): \(word)")
                }
            }
        }
        XCTAssertEqual(found, [], "DashApp is the pure core; I/O belongs to DashRuntime or DashHome")
    }

    func testThePureCoreImportsNoRuntime() throws {
        for file in Self.swiftFiles(under: Self.sources.appendingPathComponent("DashApp")) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for module in ["DashRuntime", "DashCurses", "DashNetworking", "Glibc", "Logging"] {
                XCTAssertFalse(text.contains("import \(module)\n"), "\(file.lastPathComponent) imports \(module)")
            }
        }
    }

    func testNoSourceFileOver500LinesAndNoFolderOver20Files() throws {
        var long: [String] = []
        var crowded: [String: Int] = [:]
        for file in Self.swiftFiles(under: Self.sources) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            if lines.count > 501 {
                long.append("\(file.path.dropFirst(Self.sources.path.count + 1)): \(lines.count - 1)")
            }
            crowded[file.deletingLastPathComponent().path, default: 0] += 1
        }
        XCTAssertEqual(long, [], "split these files along their concepts")
        let over = crowded.filter { $0.value > 20 }.map {
            "\($0.key.dropFirst(Self.sources.path.count + 1)): \($0.value)"
        }
        XCTAssertEqual(over, [], "give these folders concept subfolders")
    }
}
