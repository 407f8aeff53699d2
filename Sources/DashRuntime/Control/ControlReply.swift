import Foundation
import DashApp
import DashHome

/// An answer the home screen's loop owes a control-socket client: the socket's thread waits on it
/// (bounded) while the loop computes the answer from its state (`Effect.reply`).
public final class ControlReply: ControlAnswer, @unchecked Sendable {
    private let condition = NSCondition()
    private var answer: String?

    public init() {}

    /// Gives the answer (the first one counts) and wakes the waiting thread.
    public func fulfil(_ text: String) {
        condition.lock()
        if answer == nil { answer = text }
        condition.broadcast()
        condition.unlock()
    }

    /// The answer, waiting at most `seconds` for it; nil if none came.
    public func wait(seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while answer == nil {
            if !condition.wait(until: deadline) { break }
        }
        return answer
    }

    /// The answer if it has come (tests).
    public var current: String? {
        condition.lock()
        defer { condition.unlock() }
        return answer
    }
}

extension ControlProtocol {
    /// The control socket's dispatch in a running home screen. `ping` is answered at once (a second
    /// swiftdash asks it to learn whether this one runs); `snapshot` and everything else by the loop
    /// (`.snapshotRequested`, `.controlRequested`), waiting at most `wait` seconds.
    public static func serve(_ line: String, wait: Double = snapshotWait, post: (Msg) -> Void) -> String {
        if line == "ping" { return "pong" }
        if line == "snapshot" { return handleSnapshot(wait: wait, post: post) }
        if let watch = TmuxLineWatch.parse(line) { return handleSnapshot(wait: wait, watch: watch, post: post) }
        let reply = ControlReply()
        post(.controlRequested(line, reply))
        let seconds = wait == wait.rounded() ? "\(Int(clamping: wait))" : "\(wait)"
        return reply.wait(seconds: wait) ?? "error: the home screen did not answer within \(seconds) s"
    }

    /// Answers `snapshot`: asks the loop (through `post`, the runtime's inbox) for what every tile shows
    /// now and waits for it. The answer is one line of JSON (`HomeSnapshotDocument`, source `running`)
    /// or `error: …`.
    public static func handleSnapshot(
        wait: Double = snapshotWait, watch: TmuxLineWatch? = nil, post: (Msg) -> Void
    ) -> String {
        let reply = ControlReply()
        post(.snapshotRequested(reply, watch: watch))
        let seconds = wait == wait.rounded() ? "\(Int(clamping: wait))" : "\(wait)"
        return reply.wait(seconds: wait) ?? "error: the home screen did not answer within \(seconds) s"
    }
}
