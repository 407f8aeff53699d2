import XCTest
@testable import DashWidgets

/// `SimplePattern` must answer exactly as `Regex.wholeMatch` does, or not at all.
final class SimplePatternTests: XCTestCase {
    /// Every pattern the built-in schemas use, plus shapes an extension might use.
    static let patterns = [
        "[A-Za-z0-9-]{1,30}", "[A-Za-z0-9_.-]+", "[A-Za-z0-9_.][A-Za-z0-9_./-]*", "[A-Za-z]{3,5}", "https?://.+",
        #"([01][0-9]|2[0-3]):[0-5][0-9]"#, #"[A-Za-z0-9_+\-/]*"#, #"[^\n]{0,60}"#, #"[^\n]{0,80}"#,
        "", "a", "a|b", "(ab)*", "(a|ab)(c|bcd)", "a{2}", "a{2,}", "x?y+z*", "[^a-c]+", ".*", "(a*)*b", "[-a]",
        #"\.\(\)"#, "(|x)y", "[a-]{0,3}",
    ]

    static let alphabet: [Character] = [
        "a", "b", "c", "d", "x", "y", "z", "A", "Z", "0", "1", "2", "3", "5", "9", "-", "_", ".", "/", ":", "+", " ",
        "h", "t", "p", "s", "\n", "\t", "é", "e\u{301}", "(", ")", "🙂",
    ]

    func testAgreesWithRegexOnGeneratedTexts() throws {
        var rng = SplitMix(seed: 42)
        for pattern in Self.patterns {
            let simple = try XCTUnwrap(SimplePattern(pattern), "the built-in shape \(pattern) must be handled")
            let regex = try Regex(pattern)
            var texts = [
                "", "http://x", "https://", "23:59", "24:00", "07:05", "abc", String(repeating: "a", count: 31),
            ]
            for _ in 0..<400 {
                let n = Int(rng.next() % 12)
                texts.append(String((0..<n).map { _ in Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))] }))
            }
            for t in texts {
                guard let answer = simple.wholeMatch(t) else { continue }
                let expected = (try regex.wholeMatch(in: t)) != nil
                XCTAssertEqual(answer, expected, "pattern \(pattern) on \(t.debugDescription)")
            }
        }
    }

    func testOrdinaryTextIsAnsweredWithoutRegex() throws {
        let p = try XCTUnwrap(SimplePattern("[A-Za-z0-9_.-]+"))
        XCTAssertEqual(p.wholeMatch("swift-dash_1.0"), true)
        XCTAssertEqual(p.wholeMatch("no spaces"), false)
        XCTAssertEqual(try XCTUnwrap(SimplePattern(#"[^\n]{0,5}"#)).wholeMatch("abc\ndef"), false)
    }

    func testDefersWhatItDoesNotUnderstand() {
        for p in [#"\d+"#, "^a$", "a*?", "a++", "(?i)a", #"\p{L}+"#, "[[:alpha:]]", "[a&&b]", "(a", "a{2,1}", "[]a]"] {
            XCTAssertNil(SimplePattern(p), p)
        }
        XCTAssertNil(SimplePattern("a+")?.wholeMatch("e\u{301}"), "several scalars in one character: Regex decides")
        XCTAssertNil(SimplePattern(".+")?.wholeMatch("a\r\nb"), "a newline other than \\n: Regex decides")
    }

    func testSchemaValidationGivesTheSameAnswersAsBefore() {
        let schema = ConfigurationSchema([
            Parameter(
                key: "t", title: "T", help: "", kind: .string(pattern: #"([01][0-9]|2[0-3]):[0-5][0-9]"#),
                default: .string("09:00"))
        ])
        XCTAssertNil(schema.validate(schema.parameters[0], .string("23:10")))
        XCTAssertNotNil(schema.validate(schema.parameters[0], .string("25:10")))
        XCTAssertNotNil(schema.validate(schema.parameters[0], .string("9:00")))
    }

    func testPathologicalPatternGivesUpAndRegexDecides() throws {
        let p = try XCTUnwrap(SimplePattern("(a*)*b"))
        let long = String(repeating: "a", count: 40)
        // Either an exact answer or nil (the budget ran out); never a wrong one.
        if let answer = p.wholeMatch(long) { XCTAssertFalse(answer) }
    }
}

/// A small deterministic generator, so a failure names a reproducible text.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
