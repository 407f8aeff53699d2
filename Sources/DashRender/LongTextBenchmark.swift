import Foundation
import DashCore
import DashWidgets

/// Figures from `LongTextBenchmark.run`.
public struct LongTextBenchmarkResult: Sendable, CustomStringConvertible {
    public var titleBytes: Int
    public var frames: Int
    /// Milliseconds to sanitise the title (where outside text enters: escape sequences out,
    /// capped at `TextSanitizer.maxFieldCharacters`).
    public var sanitizeMilliseconds: Double
    /// Characters kept after sanitising.
    public var keptCharacters: Int
    /// Milliseconds per frame of the tile with the sanitised title.
    public var frameMilliseconds: Double
    /// Milliseconds per frame with the raw title (what the renderer alone costs, uncapped).
    public var rawFrameMilliseconds: Double

    public var description: String {
        func ms(_ x: Double) -> String { FixedFormat.decimal(x, places: 2) + " ms" }
        return """
            long text (\(titleBytes) bytes in a title, \(frames) frames of a 39x7 tile):
              sanitise once:         \(ms(sanitizeMilliseconds)) (\(keptCharacters) characters kept)
              frame, sanitised text: \(ms(frameMilliseconds))
              frame, raw text:       \(ms(rawFrameMilliseconds))
            """
    }
}

/// Issue 9, item 2: a title of any length costs a frame no more than its first lines do
/// (the sanitiser caps it where it enters) and the layout is linear even uncapped. The
/// caller measures (`time` runs a closure and returns its seconds), so this module never
/// reads the clock.
public enum LongTextBenchmark {
    /// A title of `bytes` bytes: words with one word as long as the rest, the shape that
    /// used to make wrapping quadratic.
    public static func title(bytes: Int) -> String {
        let head = "Breaking: "
        return head + String(repeating: "x", count: max(0, bytes - head.utf8.count))
    }

    /// A medium news tile's view: a title row, the headline on up to three lines, and
    /// two links with the same text on one line each.
    public static func view(_ title: String) -> TileView {
        VStack {
            HStack {
                Text(title).font(.headline).foregroundStyle(.accent).lineLimit(1)
                Spacer()
                Text("5 of 9").font(.caption)
            }
            Text(title).lineLimit(3)
            Text(title).lineLimit(1).link("https://example.com/1")
            Text(title).lineLimit(1).link("https://example.com/2")
        }
    }

    public static func run(
        titleBytes: Int = 1 << 20, frames: Int = 20,
        time: (() -> Void) -> Double
    ) -> LongTextBenchmarkResult {
        let raw = title(bytes: titleBytes)
        var clean = ""
        let sanitize = time { clean = TextSanitizer.singleLine(raw) }
        let env = RenderEnvironment(
            theme: .dark, now: Date(timeIntervalSince1970: 0),
            timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        func frameTime(_ text: String) -> Double {
            let v = view(text)
            var buffer = CellBuffer(width: 35, height: 5)
            let n = max(1, frames)
            let total = time {
                for _ in 0..<n { _ = TileRenderer.render(v, in: buffer.bounds, buffer: &buffer, environment: env) }
            }
            return total / Double(n)
        }
        return LongTextBenchmarkResult(
            titleBytes: titleBytes, frames: max(1, frames),
            sanitizeMilliseconds: sanitize * 1000, keptCharacters: clean.count,
            frameMilliseconds: frameTime(clean) * 1000,
            rawFrameMilliseconds: frameTime(raw) * 1000)
    }
}
