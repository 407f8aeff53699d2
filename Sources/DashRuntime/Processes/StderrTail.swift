import Foundation

/// What a crashed extension said last: the Swift runtime prints `File.swift:N: Fatal error: why`
/// to stderr before it traps (`fatalError`, a force unwrap, an index out of range), and that line,
/// not the signal, is what the tile's error should show. Filled by the stderr drain, read when the
/// process is found dead.
final class StderrTail: @unchecked Sendable {
    private let condition = NSCondition()
    private var fatal: String?
    private var closed = false

    /// A logged stderr line (already sanitised and cut); the first fatal error is kept.
    func note(_ line: String) {
        guard let range = line.range(of: ": Fatal error:") else { return }
        let place = line[..<range.lowerBound]
        let file = place.split(separator: "/", omittingEmptySubsequences: false).last ?? place
        condition.withLock {
            if fatal == nil { fatal = String(file + line[range.lowerBound...]) }
        }
    }

    /// Stderr reached its end.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// The fatal error line, waiting up to `wait` seconds for stderr to be read to its end (the
    /// process is dead, but the drain's thread may not have read its last words yet).
    func fatalLine(wait: TimeInterval = 0.3) -> String? {
        let deadline = Date().addingTimeInterval(wait)
        condition.lock()
        defer { condition.unlock() }
        while !closed && fatal == nil && condition.wait(until: deadline) {}
        return fatal
    }
}
