import XCTest
import Foundation
import DashTestSupport

/// zsh completes only at an interactive prompt, so it is driven in tmux: Tab after a partial word
/// offers what the completion script (`--generate-completion-script zsh`) asks swiftdash for.
final class ZshCompletionTmuxTests: XCTestCase {
    func testZshCompletesSubcommandsKindsAndIds() throws {
        try XCTSkipUnless(TmuxSession.available, "tmux is not installed (.ci/run installs it)")
        guard let zsh = ["/usr/bin/zsh", "/bin/zsh"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw XCTSkip("zsh is not installed (.ci/run installs it)") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-zsh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config/swiftdash")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // Tile t1 holds w1; the stack t2 holds w2 and w3.
        try "tiles:\n  - clock\n  - family: medium\n    stack: [{widget: crypto}, {widget: news}]\n".write(
            to: config.appendingPathComponent("home.yaml"), atomically: true, encoding: .utf8)
        let script = try runProgram(
            TmuxSession.binary, ["--generate-completion-script", "zsh"], env: ["HOME": dir.path])
        XCTAssertEqual(script.status, 0, script.err)
        try script.out.write(to: dir.appendingPathComponent("_swiftdash"), atomically: true, encoding: .utf8)
        let bin = URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent().path
        try """
        PS1='zsh> '
        fpath=(\(dir.path) $fpath)
        autoload -U compinit && compinit -u -d \(dir.path)/.zcompdump
        PATH=\(bin):$PATH
        """.write(to: dir.appendingPathComponent(".zshrc"), atomically: true, encoding: .utf8)

        let t = try TmuxSession(
            width: 100, height: 20,
            env: ["ZDOTDIR": dir.path, "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path],
            program: [zsh, "-i"])
        defer { t.close() }
        t.waitFor("the prompt") { $0.contains("zsh>") }  // capture-pane drops the trailing space
        t.keys("swiftdash preview cl", "Tab")
        t.waitFor("the widget kind") { $0.contains("zsh> swiftdash preview clock") }
        t.keys("C-u", "swiftdash config set ", "Tab")
        t.waitFor("the ids config set takes") { $0.contains("t1  w1  w2  w3") }
        t.keys("C-u", "swiftdash remo", "Tab")
        t.waitFor("the subcommand") { $0.contains("zsh> swiftdash remove") }
    }
}
