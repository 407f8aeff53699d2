import Foundation
import DashWidgets
import DashApp
import DashHome

/// Opens a web link with `$BROWSER` (its first entry) or `xdg-open`, without a shell.
/// Returns a message for the status bar when it cannot.
public enum Browser {
    public static func open(_ url: String, environment: [String: String]) -> String? {
        guard let scheme = URL(string: url)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "only http(s) links open in a browser"
        }
        let browser = environment["BROWSER"].flatMap { $0.split(separator: ":").first.map(String.init) } ?? "xdg-open"
        // Find the program first: started through /usr/bin/env it would always "succeed".
        guard let exe = executable(browser, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") else {
            let shown = TextSanitizer.singleLine(browser)
            return environment["BROWSER"] == nil
                ? "cannot open links: no xdg-open here; set $BROWSER to your browser"
                : "cannot run \(shown): set $BROWSER to a browser that exists"
        }
        let p = Process()
        p.executableURL = exe
        p.arguments = [url]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return "cannot run \(browser): set $BROWSER" }
        return "opened in \(TextSanitizer.singleLine(browser))"
    }

    /// `name` as an executable file: a path as given, else the first match on `path`.
    static func executable(_ name: String, path: String) -> URL? {
        let fm = FileManager.default
        if name.contains("/") { return fm.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil }
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            if fm.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }
}
