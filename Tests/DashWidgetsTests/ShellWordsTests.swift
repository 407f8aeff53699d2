import XCTest
@testable import DashWidgets

/// Issue 23 point 5: words to a shell line and back, by sh's quoting rules.
final class ShellWordsTests: XCTestCase {
    func testPlainWordsStayPlainAndOthersAreSingleQuoted() {
        XCTAssertEqual(
            ShellWords.join(["git", "-C", "/home/me/src", "log", "--oneline"]), "git -C /home/me/src log --oneline")
        XCTAssertEqual(ShellWords.quote("a b"), "'a b'")
        XCTAssertEqual(ShellWords.quote(""), "''")
        XCTAssertEqual(ShellWords.quote("it's"), "'it'\\''s'")
        XCTAssertEqual(ShellWords.quote("$HOME"), "'$HOME'")
    }

    func testSplitFollowsShQuoting() throws {
        XCTAssertEqual(try ShellWords.split("git -C  DIR\tlog --oneline"), ["git", "-C", "DIR", "log", "--oneline"])
        XCTAssertEqual(
            try ShellWords.split("echo 'a  b' \"c \\\"d\\\" \\x\" e\\ f ''"),
            ["echo", "a  b", "c \"d\" \\x", "e f", ""])
        XCTAssertEqual(try ShellWords.split("a'b'\"c\"d"), ["abcd"])
        XCTAssertEqual(try ShellWords.split("  "), [])
        XCTAssertThrowsError(try ShellWords.split("echo 'open"))
        XCTAssertThrowsError(try ShellWords.split("echo \"open"))
    }

    /// Whatever the words, the line splits back into exactly them.
    func testJoinThenSplitGivesTheWordsBack() throws {
        let samples: [[String]] = [
            ["git", "-C", "/tmp/my repo", "log", "--format=%h %s"],
            ["sh", "-c", "echo \"$1\" | tr a-z A-Z", "x"],
            ["", "'", "\"", "\\", "a'b\"c\\d", "tab\there", "new\nline", "ünïcode ✓", "*", "~", "#", ";&|<>()"],
        ]
        for words in samples {
            XCTAssertEqual(try ShellWords.split(ShellWords.join(words)), words, ShellWords.join(words))
        }
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("ab '\"\\$`*?; \t\n|&é")
        for _ in 0..<500 {
            let words = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                String((0..<Int.random(in: 0...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            }
            XCTAssertEqual(try ShellWords.split(ShellWords.join(words)), words)
        }
    }
}
