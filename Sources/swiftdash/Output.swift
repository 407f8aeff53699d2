import Foundation
import DashCore
import DashWidgets

// The one way a subcommand writes to standard output and standard error (issue 37.6): every
// line passes `TextSanitizer.forTerminal`, the sanitiser that feed text, API fields and tile
// text pass, so a widget setting, a kind, a path or a server's answer quoted in a report can
// never write the clipboard (OSC 52), clear the screen or retitle the window, whichever command
// prints it. `print` and `FileHandle.standardOutput` appear nowhere else in this target
// (`OutputTests.testEverySubcommandsOutputIsSanitised_noOtherWriter` holds it to that).

/// Prints `text` (sanitised) and `terminator` to standard output.
func printOut(_ text: String, terminator: String = "\n") {
    print(TextSanitizer.forTerminal(text), terminator: terminator)
}

/// Writes text for a terminal to standard error, sanitised like `printOut`: values quoted in
/// errors (a `--set` value, a widget kind, a YAML line) can carry escape sequences.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((TextSanitizer.forTerminal(text) + "\n").utf8))
}

/// A drawn screen to standard output: plain text, or with `ansi` our own colour sequences
/// around cells whose text is sanitised one by one (the only escapes that reach stdout).
func emit(_ buffer: CellBuffer, ansi: Bool) {
    guard ansi else { return printOut(buffer.textDump) }
    var clean = buffer
    for y in 0..<buffer.height {
        for x in 0..<buffer.width {
            let cell = buffer[x, y]
            if cell.isContinuation || (cell.text.utf8.count == 1 && cell.text.utf8.first! >= 0x20
                && cell.text.utf8.first! < 0x7F)
            {
                continue
            }
            if TextSanitizer.forTerminal(cell.text) != cell.text { _ = clean.write(" ", x: x, y: y, style: cell.style) }
        }
    }
    print(ANSI.render(clean, depth: outputDepth(ansi: true)), terminator: "")
}
