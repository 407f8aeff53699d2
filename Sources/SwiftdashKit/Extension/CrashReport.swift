import Foundation

/// What a kind's process said as it trapped, as one line for its tile:
/// `crashed: File.swift:LINE: Fatal error: why`. The Swift runtime prints `PLACE: Fatal error: why`
/// for `fatalError`, `try!`, a debug build's force unwrap or index out of range; its backtrace
/// names the frames, and a release build's trap has only the backtrace (`Swift runtime failure:
/// why`, or `Program crashed: Illegal instruction`). The place is the first frame in the widget's
/// own code: not the standard library's (`Swift/ContiguousArrayBuffer.swift`), not SwiftdashKit's.
struct CrashReport {
    let stderr: String
    let status: Int32

    /// SwiftdashKit's sources: frames there are the SDK's, not the widget's.
    static let sdkSources: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)  // Extension/CrashReport.swift
        return parts.joined(separator: "/") + "/"
    }()

    var line: String {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let place = (userFrame(lines) ?? fatalPlace(lines)).map { "\($0): " } ?? ""
        guard let why = message(lines) else { return "crashed: " + place + ended }
        if let signal = why.signal {
            // A release build's trap keeps no message (an index out of range, a force unwrap).
            return "crashed: " + place + "\(signal) (a trap; a debug build says why)"
        }
        return "crashed: " + place + "Fatal error: " + String(why.text.prefix(240))
    }

    /// The runtime's words, newest first: `Fatal error: why`, a release build's `Swift runtime
    /// failure: why`, or the backtrace's `Program crashed: why at 0x…`.
    func message(_ lines: [String]) -> (text: String, signal: String?)? {
        if let l = lines.last(where: { $0.contains("Fatal error: ") }), let r = l.range(of: "Fatal error: ") {
            return (String(l[r.upperBound...]).trimmingCharacters(in: .whitespaces), nil)
        }
        for marker in ["*** Swift runtime failure: ", "*** Program crashed: "] {
            guard let l = lines.last(where: { $0.hasPrefix(marker) }) else { continue }
            var text = l.dropFirst(marker.count)
            if text.hasSuffix(" ***") { text = text.dropLast(4) }
            if let at = text.range(of: " at 0x") { text = text[..<at.lowerBound] }
            return marker.contains("Program crashed") ? (String(text), String(text)) : (String(text), nil)
        }
        return nil
    }

    /// How the process ended, when it printed nothing the runtime prints.
    var ended: String {
        let signal = status & 0x7f
        if signal != 0 { return "killed by signal \(signal)" }
        return "exited with status \((status >> 8) & 0xff) in the middle of a request"
    }

    /// The first backtrace frame in the widget's code: `  3 [ra] 0x… name + 47 in exe at
    /// /path/File.swift:12:5`, as `File.swift:12`.
    func userFrame(_ lines: [String]) -> String? {
        for l in lines {
            guard let at = l.range(of: " at /", options: .backwards) else { continue }
            let head = l[..<at.lowerBound].drop(while: { $0 == " " })
            guard head.first?.isNumber == true else { continue }
            let location = l[l.index(at.lowerBound, offsetBy: 4)...]  // from the "/" of " at /"
            let parts = location.split(separator: ":")
            guard parts.count >= 2, let line = Int(parts[1]), line > 0 else { continue }
            let path = String(parts[0])
            // SwiftdashKit's frames, and the standard library's inlined into the executable.
            if path.hasPrefix(Self.sdkSources) || path.contains("/stdlib/") || !path.hasSuffix(".swift") { continue }
            return "\(path.split(separator: "/").last ?? Substring(path)):\(line)"
        }
        return nil
    }

    /// The place before `: Fatal error:` (`Module/File.swift:12`), unless it is the standard
    /// library's.
    func fatalPlace(_ lines: [String]) -> String? {
        guard let l = lines.last(where: { $0.contains(": Fatal error: ") }),
            let r = l.range(of: ": Fatal error: ")
        else { return nil }
        let place = l[..<r.lowerBound]
        guard !place.hasPrefix("Swift/"), !place.contains(" ") else { return nil }
        return String(place.split(separator: "/").last ?? place)
    }
}
