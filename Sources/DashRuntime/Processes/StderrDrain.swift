import Foundation
import DashWidgets
import DashApp
import DashHome
#if canImport(Glibc)
    import Glibc
#endif

/// Reads an extension's stderr on a thread of its own until it closes, logging at most a few
/// lines a minute (each sanitised and cut): a flood costs the extension, never the log or the loop.
/// Once a minute's lines are logged, the rest of that minute is read and thrown away by the
/// chunk, uncounted line by line, so 100 MB of tiny lines costs a few thousand reads.
enum StderrDrain {
    static func start(
        fd: Int32, name: String, limits: ExtensionLimits, log: @escaping @Sendable (String) -> Void,
        tail: StderrTail? = nil, closed: (@Sendable () -> Void)? = nil
    ) {
        let thread = Thread {
            var drain = State(name: name, limits: limits, log: log)
            drain.tail = tail
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                drain.take(chunk[0..<n], now: ExtensionProcess.monotonic())
            }
            drain.finish()
            close(fd)
            tail?.close()
            closed?()
        }
        thread.stackSize = 128 * 1024
        thread.start()
    }

    /// What the drain has seen in the current minute.
    struct State {
        let name: String
        let limits: ExtensionLimits
        let log: @Sendable (String) -> Void
        var tail: StderrTail?
        var pending: [UInt8] = []
        var windowStart = -Double.infinity
        var logged = 0
        /// Bytes thrown away unread in this minute.
        var dropped = 0

        init(name: String, limits: ExtensionLimits, log: @escaping @Sendable (String) -> Void) {
            self.name = name
            self.limits = limits
            self.log = log
        }

        var full: Bool { logged >= limits.stderrLinesPerMinute }

        mutating func take(_ bytes: ArraySlice<UInt8>, now: Double) {
            if now - windowStart >= 60 {
                reportDropped()
                windowStart = now
                logged = 0
            }
            guard !full else {
                dropped += bytes.count
                pending.removeAll()
                return
            }
            pending += bytes
            var start = pending.startIndex
            while !full, let nl = pending[start...].firstIndex(of: 0x0A) {
                emit(pending[start..<nl])
                start = nl + 1
            }
            if full {
                dropped += pending.count - start
                pending.removeAll()
                return
            }
            pending.removeSubrange(..<start)
            if pending.count > 4 * limits.stderrLineCharacters {
                emit(pending[...])
                pending.removeAll()
            }
        }

        mutating func emit(_ line: ArraySlice<UInt8>) {
            logged += 1
            let text = TextSanitizer.clean(
                String(decoding: line.prefix(4 * limits.stderrLineCharacters), as: UTF8.self),
                keepNewlines: false, maxCharacters: limits.stderrLineCharacters)
            tail?.note(text)
            log("extension \(name) stderr: \(text)")
        }

        mutating func reportDropped() {
            if dropped > 0 { log("extension \(name): \(dropped) more bytes of stderr dropped") }
            dropped = 0
        }

        mutating func finish() {
            if !pending.isEmpty && !full { emit(pending[...]) }
            reportDropped()
        }
    }
}
