import Foundation
import XCTest

/// The suite passes on a busy machine because no test sleeps a guessed time and no test bounds
/// how long something took (issue 37.9). This reads every Swift file of the tests and of the test
/// support module and fails on a new pause or a new wall-clock upper bound; the few justified
/// ones are listed, each with its reason, in `Tests/test-hygiene-exceptions.txt`.
final class TestHygieneTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What a line must not do: pause the test's own thread, or compare a duration with an upper bound.
    static let rules: [(name: String, pattern: String)] = [
        ("a pause", #"\b(usleep|nanosleep|clock_nanosleep)\s*\(|(^|[^\w."])sleep\s*\(\s*\d|Thread\.sleep\s*\(|Task\.sleep\s*\("#),
        (
            "a wall-clock upper bound",
            #"XCTAssertLessThan(OrEqual)?\([^,]*(Date\(\)|timeIntervalSince|elapsed|took|wall\b|duration|ContinuousClock)"#
        ),
        ("a wall-clock upper bound", #"#expect\([^,]*(elapsed|took\b|timeIntervalSince|duration)[^,]*<"#),
    ]

    struct Exception { let file: String, fragment: String, reason: String }

    static func exceptions() throws -> [Exception] {
        let text = try String(
            contentsOf: root.appendingPathComponent("Tests/test-hygiene-exceptions.txt"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let l = line.trimmingCharacters(in: .whitespaces)
            guard !l.isEmpty, !l.hasPrefix("#") else { return nil }
            let parts = l.components(separatedBy: " | ")
            guard parts.count == 3, !parts[2].isEmpty else { return nil }
            return Exception(file: parts[0], fragment: parts[1], reason: parts[2])
        }
    }

    static func swiftFiles() -> [String] {
        var found: [String] = []
        for top in ["Tests", "Sources/DashTestSupport"] {
            let base = root.appendingPathComponent(top)
            let walker = FileManager.default.enumerator(atPath: base.path)
            while let p = walker?.nextObject() as? String {
                if p.hasSuffix(".swift") && !p.contains("__Snapshots__") { found.append("\(top)/\(p)") }
            }
        }
        return found.sorted()
    }

    /// Every line that breaks a rule, as `file:line: rule: text`, less the listed exceptions.
    static func findings() throws -> (found: [String], unusedExceptions: [Exception]) {
        let exceptions = try exceptions()
        var used = Set<Int>()
        var found: [String] = []
        let regexes = try rules.map { ($0.name, try NSRegularExpression(pattern: $0.pattern)) }
        for file in swiftFiles() where !file.hasSuffix("TestHygieneTests.swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(raw)
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") || code.hasPrefix("///") { continue }
                for (name, regex) in regexes
                where regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    if let i = exceptions.firstIndex(where: { file == $0.file && line.contains($0.fragment) }) {
                        used.insert(i)
                    } else {
                        found.append("\(file):\(n + 1): \(name): \(code)")
                    }
                }
            }
        }
        let unused = exceptions.enumerated().filter { !used.contains($0.offset) }.map(\.element)
        return (found, unused)
    }

    func testNoTestSleepsOrBoundsHowLongSomethingTook() throws {
        let (found, unused) = try Self.findings()
        XCTAssertEqual(
            found, [],
            """
            A test waits for an event (DashTestSupport's `Eventually.wait`, `TmuxSession.waitFor`) and \
            asserts what happened, never how long it took. If a pause is really justified, list it \
            in Tests/test-hygiene-exceptions.txt with its reason.
            """)
        XCTAssertEqual(unused.map { "\($0.file) | \($0.fragment)" }, [], "exceptions that no longer match a line")
    }

    /// The check itself finds what it is for (a rule that matched nothing would pass anything).
    func testTheRulesCatchPausesAndBoundsAndNotScriptsOrWaits() throws {
        let regexes = try Self.rules.map { try NSRegularExpression(pattern: $0.pattern) }
        func caught(_ line: String) -> Bool {
            regexes.contains { $0.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil }
        }
        for bad in [
            "usleep(300_000)", "try await Task.sleep(nanoseconds: 5)", "Thread.sleep(forTimeInterval: 1)",
            "        sleep(5)", "XCTAssertLessThan(Date().timeIntervalSince(t0), 1.5)",
            "XCTAssertLessThanOrEqual(elapsed, 2)", "#expect(elapsed < .seconds(10))", "#expect(took < 50, \"\")",
        ] {
            XCTAssertTrue(caught(bad), bad)
        }
        for fine in [
            "let p = try misbehaving(\"hang\", \"sleep 30 & sleep 30\")", "exec sleep 600",
            "Eventually.wait { gone }", "XCTAssertLessThanOrEqual(r.stats.turns, 5)",
            "\"sleep\", \"sort\", \"split\"", "let config = WidgetConfig([\"sleep\": .string(\"12:00\")])",
        ] {
            XCTAssertFalse(caught(fine), fine)
        }
    }
}
