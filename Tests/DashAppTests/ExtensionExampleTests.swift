import XCTest
import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashTestSupport
@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// The shipped examples through the real protocol, end to end: the Swift one built by the
/// suite from its own package, the shell one with nothing but coreutils on its PATH, and the
/// buttons and toggles of both Python and Swift pressed on a home screen (AppHarness).
final class ExtensionExampleTests: XCTestCase {
    static let examples = exampleExtensions
    let log = LineLog()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let env = ["PATH": "/usr/bin:/bin", "HOME": "/tmp"]

    var limits: ExtensionLimits {
        var l = ExtensionLimits()
        // A debug build of Foundation code may start slowly on a loaded machine.
        l.describeTimeout = 20
        return l
    }

    // MARK: - Swift

    /// Builds examples/extensions/swift-hello with `swift build` into a scratch folder in the
    /// temporary directory, named by a hash of its sources (a second run only links, if that).
    /// Fails if the package grew dependencies: it must build offline, from itself alone. Skips
    /// the test (XCTSkip) when there is no `swift` on the PATH of `environment` to build it with.
    static func buildSwiftHello(
        timeout: TimeInterval = 300, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        guard swiftOnPath(environment) != nil else {
            throw XCTSkip(
                "no `swift` on PATH (\(environment["PATH"] ?? "unset")): cannot build examples/extensions/swift-hello")
        }
        let package = examples.appendingPathComponent("swift-hello")
        let manifest = try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
        guard !declaresDependencies(manifest) else { throw BuildError("swift-hello must have no dependencies") }
        let main = try String(
            contentsOf: package.appendingPathComponent("Sources/swift-hello/main.swift"), encoding: .utf8)
        let hash = String(SecretFingerprint.fnv1a(manifest + "\u{0}" + main), radix: 16)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-swift-hello-\(hash)")
        let output = scratch.appendingPathExtension("log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let out = try FileHandle(forWritingTo: output)
        defer { try? out.close() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.environment = environment
        // Never two builds of one scratch folder at once: SwiftPM waits on its own lock there.
        p.arguments = ["swift", "build", "--package-path", package.path, "--scratch-path", scratch.path]
        p.standardOutput = out
        p.standardError = out
        p.standardInput = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        try p.run()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            p.terminate()
            done.wait()
            throw BuildError("swift build of swift-hello took more than \(Int(timeout)) s")
        }
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard p.terminationStatus == 0 else {
            throw BuildError("swift build of swift-hello failed (\(p.terminationStatus)):\n\(text.suffix(3000))")
        }
        // Nothing was fetched: a package without dependencies has no checkouts.
        let checkouts = scratch.appendingPathComponent("checkouts")
        let fetched = (try? FileManager.default.contentsOfDirectory(atPath: checkouts.path)) ?? []
        guard fetched.isEmpty else { throw BuildError("swift-hello fetched packages: \(fetched)") }
        let exe = scratch.appendingPathComponent("debug/swift-hello").path
        guard FileManager.default.isExecutableFile(atPath: exe) else { throw BuildError("no \(exe) after the build") }
        return exe
    }

    /// The `swift` that `/usr/bin/env swift` would run with `environment`, if any.
    static func swiftOnPath(_ environment: [String: String]) -> String? {
        (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swift" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a manifest names a dependency outside its comments.
    static func declaresDependencies(_ manifest: String) -> Bool {
        manifest.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            .contains { $0.contains("dependencies") || $0.contains(".package(") }
    }

    struct BuildError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    func testTheSwiftExampleHasNoDependencies() throws {
        let manifest = try String(
            contentsOf: Self.examples.appendingPathComponent("swift-hello/Package.swift"), encoding: .utf8)
        XCTAssertFalse(Self.declaresDependencies(manifest), manifest)
        XCTAssertTrue(Self.declaresDependencies(manifest + "\n  dependencies: [.package(path: \"x\")],"))
        let sources = try FileManager.default.subpathsOfDirectory(
            atPath: Self.examples.appendingPathComponent("swift-hello/Sources").path)
        for file in sources where file.hasSuffix(".swift") {
            let text = try String(
                contentsOf: Self.examples.appendingPathComponent("swift-hello/Sources/\(file)"), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }.map(String.init)
            XCTAssertEqual(imports, ["import Foundation"], "\(file) imports only Foundation")
        }
    }

    func testTheSwiftExampleIsSkippedWithAReasonWhenSwiftIsNotOnPath() throws {
        XCTAssertThrowsError(try Self.buildSwiftHello(environment: ["PATH": "/nonexistent:/also-not-here"])) {
            let skip = $0 as? XCTSkip
            XCTAssertNotNil(skip, "a skip, not a failure: \($0)")
            XCTAssertTrue("\($0)".contains("no `swift` on PATH (/nonexistent:/also-not-here)"), "\($0)")
        }
        XCTAssertNil(Self.swiftOnPath([:]))
        // Found where it is: only then does the build run (and fail, if it fails, as a failure).
        let folder = try ShellExtensionFolder(prefix: "swift-on-path")
        defer { folder.remove() }
        let fake = try folder.write("swift", "#!/bin/sh\nexit 1\n")
        XCTAssertEqual(Self.swiftOnPath(["PATH": "/nonexistent:\(folder.path)"]), fake)
    }

    func testTheSwiftExampleBuildsAndSpeaksTheProtocol() async throws {
        let exe = try Self.buildSwiftHello()
        let found = Extensions.discover([exe], builtin: ["clock"], environment: env, limits: limits, log: log.add)
        defer { found.processes.forEach { $0.stop() } }
        XCTAssertEqual(found.problems, [], log.lines.joined(separator: "\n"))
        let hello = try XCTUnwrap(found.widgets.first)
        // describe
        XCTAssertEqual(hello.kind, "hello")
        XCTAssertEqual(hello.displayName, "Hello")
        XCTAssertEqual(hello.supportedFamilies, [.small])
        XCTAssertEqual(hello.schema.parameters.map(\.key), ["name", "greeting"])
        XCTAssertTrue(hello.isInteractive)
        // placeholder (asked at start)
        let context = TimelineContext(family: .small, size: (17, 5), now: now)
        XCTAssertEqual(hello.placeholder(in: context).summary, "")
        XCTAssertTrue(drawnText(hello.view(for: hello.placeholder(in: context), in: context)).contains("Hello, …"))
        // options for the dynamic enum
        let greeting = try XCTUnwrap(hello.schema.parameters.first { $0.key == "greeting" })
        let options = try await XCTUnwrap(greeting.dynamicOptions)(WidgetConfig())
        XCTAssertEqual(options.map(\.value), ["Hello", "Hi", "Moin"])
        XCTAssertEqual(options.last?.title, "Moin (northern German)")
        // snapshot and timeline
        var config = WidgetConfig()
        config["name"] = .string("Ada")
        config["greeting"] = .string("Moin")
        let snapshot = await hello.snapshot(for: config, in: context)
        XCTAssertEqual(snapshot.summary, "Moin, Ada")
        let t = try await Loads.run(hello, configuration: config, in: context).get()
        XCTAssertEqual(t.policy, .never)
        XCTAssertEqual(t.entries.map(\.summary), ["Moin, Ada"])
        XCTAssertEqual(t.entries.first?.date, now, "the context's now")
        let view = hello.view(for: t.entries[0], in: context)
        XCTAssertEqual(view.controls.map(\.title), ["Wave"])
        // perform: the answer carries the new timeline, which the next load of that instance takes.
        let environment = AppEnvironment(bundle: WidgetBundle([hello]), timeZone: .gmt)
        let instance = context.forInstance("w1", environment: environment)
        let inverse = try await hello.perform(ActionPayload("wave"), configuration: config, in: instance)
        XCTAssertNil(inverse, "a wave cannot be undone")
        let after = try await Loads.run(hello, configuration: config, in: instance).get()
        XCTAssertTrue(drawnText(hello.view(for: after.entries[0], in: context)).contains("1 wave"))
        do {
            _ = try await hello.perform(ActionPayload("nope"), configuration: config, in: instance)
            XCTFail("an unknown action is an error answer")
        } catch {
            XCTAssertTrue("\(error)".hasPrefix("swift-hello: "), "\(error)")
        }
        XCTAssertEqual(found.processes.first?.starts, 1, "one process answered everything")
    }

    func testTheSwiftExampleOnAHomeScreenWavesWithEnter() async throws {
        let exe = try Self.buildSwiftHello()
        let found = Extensions.discover([exe], builtin: [], environment: env, limits: limits, log: log.add)
        defer { found.processes.forEach { $0.stop() } }
        var item = WidgetInstance(id: "w1", kind: "hello")
        item.config["name"] = .string("Ada")
        let h = AppHarness(
            widgets: found.widgets, home: HomeConfig(tiles: [TileInstance(id: "t1", family: .small, items: [item])]),
            now: now)
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("0 waves"), h.screen)
        h.press(.tab)
        h.press(.enter)
        XCTAssertTrue(h.screen.contains("Wave ⋯"), "pending at once\n\(h.screen)")
        await h.runActions()
        XCTAssertEqual(h.loads.count, 1, "the action reloads the tile")
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("1 wave"), h.screen)
        XCTAssertFalse(h.screen.contains("⋯"), h.screen)
        h.press(.enter)
        await h.runActions()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("2 waves"), "Enter again on the same control\n\(h.screen)")
    }

    // MARK: - Shell

    /// The programs of GNU coreutils (its manual's list).
    static let coreutils: Set<String> = [
        "arch", "b2sum", "base32", "base64", "basename", "basenc", "cat", "chcon", "chgrp", "chmod", "chown",
        "chroot", "cksum", "comm", "cp", "csplit", "cut", "date", "dd", "df", "dir", "dircolors", "dirname", "du",
        "echo", "env", "expand", "expr", "factor", "false", "fmt", "fold", "groups", "head", "hostid", "id",
        "install", "join", "link", "ln", "logname", "ls", "md5sum", "mkdir", "mkfifo", "mknod", "mktemp", "mv",
        "nice", "nl", "nohup", "nproc", "numfmt", "od", "paste", "pathchk", "pinky", "pr", "printenv", "printf",
        "ptx", "pwd", "readlink", "realpath", "rm", "rmdir", "runcon", "seq", "sha1sum", "sha224sum", "sha256sum",
        "sha384sum", "sha512sum", "shred", "shuf", "sleep", "sort", "split", "stat", "stdbuf", "stty", "sum",
        "sync", "tac", "tail", "tee", "test", "timeout", "touch", "tr", "true", "truncate", "tsort", "tty",
        "uname", "unexpand", "uniq", "unlink", "users", "vdir", "wc", "who", "whoami", "yes",
    ]

    func testTheShellExampleNeedsOnlyShAndCoreutils() async throws {
        let script = Self.examples.appendingPathComponent("uptime.sh")
        let text = try String(contentsOf: script, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#!/bin/sh\n"), "POSIX sh")
        // A PATH with coreutils and nothing else: awk, sed, grep, python… are not there.
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("coreutils-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        for name in Self.coreutils {
            for dir in ["/usr/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
                try FileManager.default.createSymbolicLink(
                    atPath: bin.appendingPathComponent(name).path, withDestinationPath: "\(dir)/\(name)")
                break
            }
        }
        let found = Extensions.discover(
            [script.path], builtin: [], environment: ["PATH": bin.path], limits: limits, log: log.add)
        defer { found.processes.forEach { $0.stop() } }
        XCTAssertEqual(found.problems, [])
        let uptime = try XCTUnwrap(found.widgets.first)
        XCTAssertEqual(uptime.kind, "uptime")
        let context = TimelineContext(family: .small, size: (17, 5), now: now)
        let t = try await Loads.run(uptime, configuration: WidgetConfig(), in: context).get()
        XCTAssertTrue(
            t.entries[0].summary.range(of: #"^up \d+ d \d\d:\d\d$"#, options: .regularExpression) != nil,
            t.entries[0].summary)
        let snapshot = await uptime.snapshot(for: WidgetConfig(), in: context)
        XCTAssertTrue(snapshot.summary.hasPrefix("up "), snapshot.summary)
        // An unknown method is an error answer, not a crash.
        let process = try XCTUnwrap(found.processes.first)
        XCTAssertThrowsError(try process.request("options", params: ["kind": .string("uptime")], timeout: 5)) {
            XCTAssertEqual("\($0)", "uptime.sh: unknown method options")
        }
        XCTAssertEqual(process.starts, 1)
        XCTAssertFalse(log.lines.contains { $0.contains("not found") }, log.lines.joined(separator: "\n"))
    }

    // MARK: - Python

    func testThePythonExamplesToggleSendsPerformAndUUndoesIt() async throws {
        let found = Extensions.discover(
            [Self.examples.appendingPathComponent("countdown.py").path], builtin: [], environment: env,
            limits: limits, log: log.add)
        defer { found.processes.forEach { $0.stop() } }
        var item = WidgetInstance(id: "w1", kind: "countdown")
        item.config["title"] = .string("Trip")
        item.config["until"] = .date(now.addingTimeInterval(30 * 86_400))
        let h = AppHarness(
            widgets: found.widgets,
            home: HomeConfig(tiles: [TileInstance(id: "t1", family: .medium, items: [item])]), now: now)
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("[ ] Remind me"), h.screen)
        h.press(.tab)
        XCTAssertEqual(h.state.highlightedControl?.title, "Remind me")
        h.press(.char(" "))
        XCTAssertTrue(h.screen.contains("[x] Remind me ⋯"), "the toggle flips at once\n\(h.screen)")
        let job = try XCTUnwrap(h.actionJob(of: "w1"))
        XCTAssertEqual(job.action, ActionPayload("remind"))
        await h.runActions()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("[x] Remind me"), h.screen)
        XCTAssertFalse(h.screen.contains("⋯"), h.screen)
        XCTAssertEqual(h.state.entry(ofInstance: "w1")?.relevance?.reason, "you asked to be reminded")
        XCTAssertTrue(h.screen.contains("Remind me: done · u undoes"), h.screen)
        h.press(.char("u"))
        await h.runActions()
        await h.runLoads()
        XCTAssertTrue(h.screen.contains("[ ] Remind me"), "u sent the undo action\n\(h.screen)")
        XCTAssertNil(h.state.entry(ofInstance: "w1")?.relevance)
    }
}

/// The text a view draws in a small tile's content area.
func drawnText(_ view: TileView, width: Int = 17, height: Int = 5) -> String {
    var buffer = CellBuffer(width: width, height: height)
    _ = TileRenderer.render(
        view, in: Rect(x: 0, y: 0, width: width, height: height), buffer: &buffer,
        environment: RenderEnvironment(theme: .dark, now: Date(timeIntervalSince1970: 0), timeZone: .gmt))
    return buffer.textDump
}
