import Foundation

/// Opens a web link with `$BROWSER` (its first entry) or `xdg-open`, without a shell.
/// Returns a message for the status bar when it cannot.
public enum Browser {
    public static func open(_ url: String, environment: [String: String]) -> String? {
        guard let scheme = URL(string: url)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "only http(s) links open in a browser"
        }
        let browser = environment["BROWSER"].flatMap { $0.split(separator: ":").first.map(String.init) } ?? "xdg-open"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [browser, url]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return "cannot run \(browser): set $BROWSER" }
        return "opened in \(browser)"
    }
}
