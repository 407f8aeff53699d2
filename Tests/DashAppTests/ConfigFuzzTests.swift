import DashBuiltinWidgets
import DashCore
import DashWidgets
import Foundation
import XCTest
import DashTestSupport

@testable import DashApp
@testable import DashHome
@testable import DashRuntime

/// Issue 9, fuzzing: random mutations of real home.yaml and theme files (the libFuzzer
/// targets' seeds; a fixed seed, a few thousand cases, a few seconds). Whatever the bytes,
/// parsing returns a configuration or a `file:line: message` error: never a crash, a hang, a
/// file dump or a control character in the message (`AppFuzzHarness`).
final class ConfigFuzzTests: XCTestCase {
    typealias Random = SeededRandom

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The libFuzzer target's seeds (Tests/fuzz/seeds/TARGET), plus themes/ for `theme`.
    static func seeds(_ target: AppFuzzTarget) throws -> [(name: String, bytes: [UInt8])] {
        var dirs = [root.appendingPathComponent("Tests/fuzz/seeds/\(target.rawValue)")]
        if target == .theme { dirs.append(root.appendingPathComponent("themes")) }
        return try dirs.flatMap { dir in
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map {
                ($0, Array(try Data(contentsOf: dir.appendingPathComponent($0))))
            }
        }
    }

    /// Pieces that mean something to YAML, to splice in.
    static let tokens: [[UInt8]] =
        [
            "&a ", "*a", "*a: ", "&b [", "*b", "[", "]", "{", "}", ": ", "- ", "? ", "|\n", ">-\n", "#", "'", "\"",
            "\\", "\n",
            "    ", "\t", "!!str ", "!!binary ", "<<: *a", ",", "---\n", "...\n", "%YAML 1.1\n", "~", "null", "0x1F",
            "1e400",
            "tiles:", "family: ", "widget: ", "stack:", "config: ", "theme: ", "colors:", "accent: ",
            "\u{1B}]52;c;QUFB\u{07}",
            "\u{202E}", "日本", "👨‍👩‍👧", "\u{0}", "\r\n", "\u{FEFF}",
        ].map { Array($0.utf8) } + [[0xC3], [0xFF], [0xE2, 0x82], [0xF0, 0x9F, 0x98]]

    func mutate(_ input: [UInt8], _ r: inout Random) -> [UInt8] {
        var b = input
        for _ in 0...r.below(4) {
            switch r.below(8) {
            case 0 where !b.isEmpty:  // flip a bit
                let i = r.below(b.count)
                b[i] ^= UInt8(1 << r.below(8))
            case 1 where !b.isEmpty:  // a random byte
                b[r.below(b.count)] = UInt8(r.below(256))
            case 2:  // insert a token
                b.insert(contentsOf: r.pick(Self.tokens), at: r.below(b.count + 1))
            case 3 where !b.isEmpty:  // delete a range
                let i = r.below(b.count)
                b.removeSubrange(i..<min(b.count, i + 1 + r.below(20)))
            case 4 where !b.isEmpty:  // duplicate a range (repeated keys, deeper nesting)
                let i = r.below(b.count)
                let piece = Array(b[i..<min(b.count, i + 1 + r.below(60))])
                b.insert(contentsOf: piece, at: r.below(b.count + 1))
            case 5 where !b.isEmpty:  // truncate
                b.removeSubrange(r.below(b.count)..<b.count)
            case 6:  // repeat a token many times (bombs, nesting)
                let t = r.pick(Self.tokens)
                b.insert(
                    contentsOf: Array([[UInt8]](repeating: t, count: 1 + r.below(300)).joined()),
                    at: r.below(b.count + 1))
            default:  // swap two lines
                var lines = b.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                if lines.count > 1 { lines.swapAt(r.below(lines.count), r.below(lines.count)) }
                b = Array(lines.joined(separator: [0x0A]))
            }
        }
        return b
    }

    struct Findings {
        var cases = 0, accepted = 0, rejected = 0, withoutLine: [String: Int] = [:]
    }

    /// Runs `cases` mutations of `fixtures` through `run` (an `AppFuzzHarness` target: the
    /// same checks as the libFuzzer target of that name) and fails on every problem found.
    func fuzz(
        _ fixtures: [[UInt8]], cases: Int, seed: UInt64, run: (Data) -> AppFuzzHarness.Outcome
    ) -> Findings {
        var r = Random(state: seed)
        var f = Findings()
        for n in 0..<cases {
            let bytes = mutate(fixtures[n % fixtures.count], &r)
            f.cases += 1
            let o = run(Data(bytes))
            if o.accepted { f.accepted += 1 } else { f.rejected += 1 }
            if let kind = o.lineless { f.withoutLine[kind, default: 0] += 1 }
            if !o.problems.isEmpty {
                XCTFail("\(o.problems.prefix(3)) for \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
        return f
    }

    /// The libFuzzer targets' seeds (Tests/fuzz/seeds, themes/) are accepted with nothing wrong:
    /// a seed refused at its first line would leave the fuzzer nothing deep to mutate.
    func testFuzzSeedsAreAccepted() throws {
        var seen = 0
        for target in AppFuzzTarget.allCases {
            for (name, bytes) in try Self.seeds(target) {
                let o = AppFuzzHarness.outcome(target, Data(bytes))
                XCTAssertTrue(o.accepted, "\(target) seed \(name): \(o.message ?? "")")
                XCTAssertEqual(o.problems, [], "\(target) seed \(name)")
                seen += 1
            }
        }
        XCTAssertGreaterThanOrEqual(seen, 12)
    }

    func testFuzzHomeYAML() throws {
        let start = Date()
        let f = fuzz(try Self.seeds(.home).map(\.bytes), cases: 3_000, seed: 0x5EED_0001) {
            AppFuzzHarness.home($0)
        }
        print(
            "fuzz home.yaml: \(f.cases) cases, \(f.accepted) accepted, \(f.rejected) rejected with file:line messages "
                + "(without a line: \(f.withoutLine)), \(Int(Date().timeIntervalSince(start) * 1000)) ms")
        XCTAssertGreaterThan(f.accepted, 100, "mutations still make valid files")
        XCTAssertGreaterThan(f.rejected, 1_000)
    }

    func testFuzzThemes() throws {
        let start = Date()
        let fixtures = try Self.seeds(.theme).map(\.bytes)
        let f = fuzz(fixtures, cases: 2_000, seed: 0x5EED_0002) { AppFuzzHarness.theme($0) }
        print(
            "fuzz themes: \(f.cases) cases, \(f.accepted) accepted, \(f.rejected) rejected with file:line messages "
                + "(without a line: \(f.withoutLine)), \(Int(Date().timeIntervalSince(start) * 1000)) ms")
        XCTAssertGreaterThan(f.accepted, 100)
        XCTAssertGreaterThan(f.rejected, 500)
    }
}
