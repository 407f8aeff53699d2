import Foundation
import DashWidgets
import DashHome

extension App {
    /// `home.yaml` changed on disk but could not be read (too large, not a regular file,
    /// unreadable, not UTF-8): like a broken file, the last good home stays, the status line says
    /// `home.yaml[:line]: not read: why` until the file is fixed, and writes are refused meanwhile.
    static func homeFileRefused(_ s: inout AppState, _ problem: ConfigFileError) -> [Effect] {
        guard var file = s.homeFile else { return [] }
        // The file changed under our undo steps, as for any outside edit.
        _ = forgetEditHistory(&s)
        var shown = problem
        shown.file = URL(fileURLWithPath: file.path).lastPathComponent
        shown.message = "not read: " + problem.message
        file.problem = TextSanitizer.singleLine(shown.description)
        s.homeFile = file
        s.note = nil  // the problem shows in its place until the file is fixed
        return [
            .log("\(file.path) was not read, keeping the last good home screen: \(problem.description)"),
            .redraw(full: false),
        ]
    }
}
