import XCTest
import Foundation

/// The house rules (docs/architecture.md). The package graph keeps the pure modules from the
/// runtime: a module that imports what it does not declare fails
/// `swift build --explicit-target-dependency-import-check error`. What remains to check: that the
/// graph itself keeps the pure modules pure (no I/O module among their dependencies), and that
/// they use no file, process, socket, sleep or clock API of Glibc or Foundation (which every
/// module may import for its value types).
final class ArchitectureTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sources = root.appendingPathComponent("Sources")

    /// Modules that compute and never touch the world: time and data are passed in.
    static let pureModules = [
        "DashCore", "DashWidgets", "DashScheduler", "DashRender", "DashHome", "DashApp", "DashActivities",
    ]
    static func swiftFiles(under dir: URL) -> [URL] {
        let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)
        return (e?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The dependencies Package.swift declares for `target` (the names in its `dependencies:` list).
    static func dependencies(of target: String) throws -> [String] {
        let package = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        guard let at = package.range(of: "name: \"\(target)\"") else { return [] }
        let rest = package[at.upperBound...]
        let end = rest.range(of: "\n        .")?.lowerBound ?? rest.endIndex
        let block = rest[..<end]
        guard let deps = block.range(of: "dependencies: [") else { return [] }
        var names: [String] = []
        var inside = false
        var name = ""
        var depth = 1
        for ch in block[deps.upperBound...] {
            if ch == "[" { depth += 1 }
            if ch == "]" {
                depth -= 1
                if depth == 0 { break }
            }
            if ch == "\"" {
                if inside { names.append(name) }
                inside.toggle()
                name = ""
            } else if inside {
                name.append(ch)
            }
        }
        return names
    }

    func testThePureModulesDependOnlyOnPureModules() throws {
        XCTAssertEqual(
            try Self.dependencies(of: "DashApp"),
            ["DashCore", "DashWidgets", "DashScheduler", "DashRender", "DashHome", "DashActivities"])
        for module in Self.pureModules {
            let deps = try Self.dependencies(of: module)
            XCTAssertEqual(
                deps.filter { !Self.pureModules.contains($0) && $0 != "Yams" }, [], "\(module) depends on I/O")
        }
    }

    func testThePureModulesUseNoFileProcessSocketSleepOrClockAPI() throws {
        let forbidden = [
            "FileManager", "FileHandle", "fopen(", "O_RDONLY", "O_RDWR", "O_CREAT", "posix_spawn", "dlopen", "Process(",
            "socket(", "fsync(", "inotify", "usleep(", "nanosleep", "Thread.sleep", "contentsOfFile",
            "contentsOf: URL", "Data(contentsOf", "write(to:", "flock(", "getpid(", "ProcessInfo", "getenv(",
            "URLSession", "realpath(", "readlink", "resolvingSymlinksInPath", "Date()", "import Glibc",
            "import Darwin", "import Musl", "import Dispatch",
        ]
        // The C library's `wcwidth` (a table lookup) is bound by symbol name.
        let allowed = ["DisplayWidth.swift: import Glibc", "DisplayWidth.swift: import Darwin"]
        var found: [String] = []
        for module in Self.pureModules {
            for file in Self.swiftFiles(under: Self.sources.appendingPathComponent(module)) {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                for (n, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    for word in forbidden where line.contains(word) {
                        if allowed.contains("\(file.lastPathComponent): \(word)") { continue }
                        found.append("\(module)/\(file.lastPathComponent):\(n + 1): \(word)")
                    }
                }
            }
        }
        XCTAssertEqual(found, [], "I/O belongs to DashHomeFiles, DashFiles, DashSpawn or DashRuntime")
    }

    func testThePureCoreStartsNoThreadAndTakesNoLock() throws {
        let forbidden = ["Thread", "DispatchQueue", "NSLock", "NSCondition", "pthread_"]
        var found: [String] = []
        for file in Self.swiftFiles(under: Self.sources.appendingPathComponent("DashApp")) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            for (n, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for word in forbidden where line.contains(word) {
                    found.append("\(file.lastPathComponent):\(n + 1): \(word)")
                }
            }
        }
        XCTAssertEqual(found, [], "DashApp is the pure core; threads belong to DashRuntime")
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
