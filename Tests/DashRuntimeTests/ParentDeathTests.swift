import XCTest
import Foundation
import DashWidgets
import DashTestSupport
import DashBuiltinWidgets
@testable import DashApp
@testable import DashHome
@testable import DashRuntime
#if canImport(Glibc)
    import Glibc
#endif

/// Extensions and the provider host start through the parent-death trampoline
/// (`swiftdash-fetch --exec-with-parent-death`) with exactly the isolation of a direct start, and
/// start directly when it is missing. That they then die with a SIGKILLed swiftdash is checked on
/// the real binary (EndToEndTests/ParentDeathEndToEndTests).
final class ParentDeathTests: XCTestCase {
    let log = LineLog()
    var folder: ShellExtensionFolder!
    let env = ["PATH": "/usr/bin:/bin", "HOME": "/tmp"]

    override func setUpWithError() throws { folder = try ShellExtensionFolder(prefix: "pdeath") }

    override func tearDownWithError() throws { folder.remove() }

    /// An extension that answers one request with `{}` and exits.
    static let answersOnce =
        "#!/bin/sh\nIFS= read -r l; id=${l#*\\\"id\\\":}; id=${id%%[,\\}]*}; echo '{\"id\":'$id',\"result\":{}}'\n"

    func trampoline() throws -> String {
        try XCTUnwrap(builtProduct("swiftdash-fetch"), "swiftdash-fetch is not built").path
    }

    /// An extension that answers every request with what it sees of itself: its open file
    /// descriptors, process group, session, ignored and blocked signals, and parent.
    func introspecting(launcher: String?) throws -> ExtensionProcess {
        let path = try folder.write(
            "self",
            """
            #!/bin/sh
            while IFS= read -r l; do
            id=${l#*\\"id\\":}; id=${id%%[,\\}]*}
            fds=$(ls /proc/$$/fd | sort -n | tr '\\n' ' ')
            set -- $(cut -d' ' -f4,5,6 /proc/$$/stat)
            sig=$(grep -E '^Sig(Ign|Blk)' /proc/$$/status | tr '\\t\\n' '  ')
            echo '{"id":'$id',"result":{"self":"pid='$$' ppid='$1' pgrp='$2' sid='$3' fds='"$fds"' '"$sig"'"}}'
            done
            """)
        let p = ExtensionProcess(path: path, environment: env, log: log.add)
        p.launcher = launcher
        return p
    }

    func describeSelf(_ p: ExtensionProcess) throws -> [String: String] {
        let text = try XCTUnwrap(p.request("self", timeout: 10)["self"]?.string)
        var out: [String: String] = [:]
        for part in text.split(separator: " ") {
            let kv = part.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { out[String(kv[0])] = String(kv[1]) }
        }
        out["raw"] = text
        return out
    }

    func testTheTrampolineIsFoundWhereTheNetworkHelperIs() {
        for environment in [
            [:], ["SWIFTDASH_FETCH": "/opt/x/fetch"], ["SWIFTDASH_FETCH": "~/bin/fetch", "HOME": "/h"],
        ] {
            XCTAssertEqual(
                ParentDeath.launcher(environment: environment),
                SubprocessTransport.defaultExecutable(environment: environment).path, "\(environment)")
        }
    }

    func testThroughTheTrampolineTheIsolationIsExactlyThatOfADirectStart() throws {
        let direct = try introspecting(launcher: nil)
        let through = try introspecting(launcher: try trampoline())
        defer {
            direct.stop()
            through.stop()
        }
        let a = try describeSelf(direct)
        let b = try describeSelf(through)
        for s in [a, b] {
            XCTAssertEqual(s["pgrp"], s["pid"], "its own process group: \(s["raw"]!)")
            XCTAssertEqual(s["sid"], s["pid"], "its own session: \(s["raw"]!)")
            XCTAssertEqual(s["ppid"], String(getpid()), "started by this process: \(s["raw"]!)")
        }
        // Same descriptors (0, 1, 2, and what the shell opens itself), same signal state.
        func shared(_ s: [String: String]) -> [String] {
            s["raw"]!.split(separator: " ").map(String.init).filter {
                !$0.contains("pid=") && !$0.hasPrefix("pgrp=") && !$0.hasPrefix("sid=")
            }
        }
        XCTAssertEqual(shared(a), shared(b))
        XCTAssertTrue(b["raw"]!.contains("SigBlk: 0000000000000000"), b["raw"]!)
        XCTAssertEqual(through.starts, 1)
        XCTAssertEqual(through.launcher, try trampoline(), "the trampoline was used, not given up")
    }

    func testAnExtensionInheritsNoDescriptorItWasNotGiven() throws {
        // A descriptor opened without close-on-exec (by another thread, a library, a test runner)
        // never reaches an extension, started directly or through the trampoline.
        let devNull = open("/dev/null", O_RDONLY)
        let stray = dup2(devNull, 900)
        close(devNull)
        XCTAssertEqual(stray, 900)
        defer { close(stray) }
        for launcher in [nil, try trampoline()] {
            let p = try introspecting(launcher: launcher)
            defer { p.stop() }
            let raw = try XCTUnwrap(describeSelf(p)["raw"])
            let fds = raw.components(separatedBy: "fds=").last?.components(separatedBy: " Sig").first ?? ""
            let numbers = fds.split(separator: " ").compactMap { Int($0) }
            XCTAssertEqual(Array(numbers.prefix(3)), [0, 1, 2], raw)
            XCTAssertFalse(numbers.contains(900), "launcher \(launcher ?? "none"): \(raw)")
            XCTAssertLessThan(numbers.max() ?? 0, 20, "only the shell's own past 2: \(raw)")
        }
    }

    func testAnExtensionStartedOnAThreadThatEndsKeepsRunning() throws {
        // The parent-death signal follows the thread that spawned: a describe's or a load's thread
        // ends after its request, and must not take the extension with it.
        let p = try introspecting(launcher: try trampoline())
        defer { p.stop() }
        let first = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            first.value = (try? p.request("self", timeout: 10))?["self"]?.string
            done.signal()
        }
        thread.start()
        done.wait()
        XCTAssertTrue(Eventually.wait { thread.isFinished })
        XCTAssertNotNil(first.value)
        let second = try describeSelf(p)["raw"]
        XCTAssertEqual(
            second?.split(separator: " ").first, first.value?.split(separator: " ").first,
            "the same process answers after its spawning thread ended")
        XCTAssertEqual(p.starts, 1)
    }

    final class Box: @unchecked Sendable { var value: String? }

    func testStartsFromManyThreadsAtOnceAllGoThroughTheOneSpawnerThread() throws {
        let path = try folder.write("echo", Self.answersOnce)
        let env = self.env
        let answered = Counter()
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread {
                for _ in 0..<10 {
                    let p = ExtensionProcess(path: path, environment: env, log: { _ in })
                    p.launcher = nil
                    if (try? p.request("ping", timeout: 10)) != nil { answered.add() }
                    p.stop()
                }
                group.leave()
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(answered.value, 80)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.withLock { n += 1 } }
        var value: Int { lock.withLock { n } }
    }

    func testAMissingTrampolineStartsExtensionsDirectlyAndSaysSoOnce() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/swiftdash-fetch"
        let a = try introspecting(launcher: missing)
        let b = try introspecting(launcher: missing)
        defer {
            a.stop()
            b.stop()
        }
        XCTAssertNotNil(try describeSelf(a)["pid"])
        XCTAssertNotNil(try describeSelf(b)["pid"])
        XCTAssertEqual(log.lines.filter { $0.contains("no \(missing) to start extensions") }.count, 1, "\(log.lines)")
    }

    func testAProgramThatIsNotATrampolineIsGivenUpForADirectStart() throws {
        // An older swiftdash-fetch does not know the option: it never says `P` on the report pipe.
        let old = try folder.write("old-fetch", "#!/bin/sh\necho 'usage: swiftdash-fetch' >&2\nexit 2\n")
        let p = try introspecting(launcher: old)
        defer { p.stop() }
        XCTAssertNotNil(try describeSelf(p)["pid"])
        XCTAssertNil(p.launcher)
        XCTAssertEqual(p.starts, 1)
        XCTAssertTrue(
            log.lines.contains { $0.contains("cannot start it with --exec-with-parent-death") }, "\(log.lines)")
    }

    func testAnExtensionThatCannotStartReadsTheSameThroughTheTrampoline() throws {
        let plain = try folder.write("plain", "#!/bin/sh\nexit 0\n")
        chmod(plain, 0o644)
        var messages: [[String]] = []
        for launcher in [nil, try trampoline()] {
            var seen: [String] = []
            for path in [folder.path + "/missing", plain] {
                let p = ExtensionProcess(path: path, environment: env, log: log.add)
                p.launcher = launcher
                XCTAssertThrowsError(try p.request("describe", timeout: 30)) { seen.append("\($0)") }
                XCTAssertNil(p.processID)
            }
            messages.append(seen)
        }
        XCTAssertEqual(
            messages[0], ["missing: cannot start: No such file or directory", "plain: cannot start: Permission denied"])
        XCTAssertEqual(messages[1], messages[0])
    }

    func testTheProviderHostGoesThroughTheTrampolineWithoutASecondStart() throws {
        let fetch = try trampoline()
        let host = ProviderHost(path: fetch, environment: ["SWIFTDASH_FETCH": fetch]) { [log] in log.add($0) }
        defer { host.stop() }
        let clock = try XCTUnwrap(host.remote(ClockWidget.widget).remote)
        let context = TimelineContext(family: .small, size: (17, 5), now: Date(timeIntervalSince1970: 1_800_000_000))
        _ = try clock.timeline(WidgetConfig(), context)
        let pid = try XCTUnwrap(host.processIDs.first)
        let cmdline = String(
            decoding: FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data(), as: UTF8.self
        )
        .split(separator: "\0").map(String.init)
        // The trampoline found its target was itself and went on serving: one start, no exec.
        XCTAssertEqual(cmdline.count, 7, "\(cmdline)")
        XCTAssertEqual(cmdline.prefix(3), [fetch, "--exec-with-parent-death", String(getpid())])
        XCTAssertEqual(cmdline.suffix(3), ["--", fetch, "--serve"])
        // Its report pipe closed when it went on serving: descriptor 3 is gone, or reused for
        // something that is not a pipe.
        XCTAssertEqual(cmdline[3], "3")
        let three = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/3")) ?? "closed"
        XCTAssertFalse(three.hasPrefix("pipe:"), three)
    }

    /// What the trampoline adds to a start: the time until an extension's first answer, direct and
    /// through it, printed for the report (a measurement, not a bound: a busy machine is slow, not
    /// wrong). What is asserted is that every start through it answered.
    func testWhatTheTrampolineAddsToAStart() throws {
        let path = try folder.write("echo", Self.answersOnce)
        func median(_ launcher: String?) throws -> Double {
            var times: [Double] = []
            for _ in 0..<9 {
                let p = ExtensionProcess(path: path, environment: env, log: log.add)
                p.launcher = launcher
                let t0 = ExtensionProcess.monotonic()
                _ = try p.request("ping", timeout: 10)
                times.append(ExtensionProcess.monotonic() - t0)
                p.stop()
            }
            return times.sorted()[times.count / 2]
        }
        let direct = try median(nil)
        let through = try median(try trampoline())
        print(
            String(
                format: "spawn to first answer: direct %.1f ms, through the trampoline %.1f ms (+%.1f ms)",
                direct * 1000, through * 1000, (through - direct) * 1000))
    }
}
