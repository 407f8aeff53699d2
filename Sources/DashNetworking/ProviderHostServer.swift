import Foundation
import DashWidgets
import DashBuiltinWidgets
#if canImport(Glibc)
    import Glibc
#endif

/// The provider host's side (`swiftdash-fetch --serve`): runs the built-in widgets' providers
/// for the home screen, like a WidgetKit extension process. It reads requests as JSON lines
/// on stdin (the extension protocol's envelope: `id`, `method`, `params`), runs one at a time,
/// answers each with one line on stdout, and exits when its input closes or after `idle`
/// seconds without a request. Network bytes, XML and JSON from outside are read here, never in
/// the home screen; a crash here costs the requests in flight, not the screen.
public final class ProviderHostServer: @unchecked Sendable {
    public let bundle: WidgetBundle
    /// Seconds without a request before the host exits.
    public let idle: TimeInterval
    /// Seconds a provider may overrun its widget's timeout before the host gives it up and,
    /// once the answer is sent, exits (a provider that ignores cancellation holds a thread).
    public let grace: TimeInterval
    private var poisoned = false
    /// The thread providers run on, and wait on (`ProviderSleep`).
    private let executor: HostExecutor

    public init(bundle: WidgetBundle, idle: TimeInterval = 20, grace: TimeInterval = 1) {
        self.bundle = bundle
        self.idle = idle
        self.grace = grace
        executor = HostExecutor()
        ProviderSleep.install(executor.sleep)
    }

    /// Serves `input` until it closes or stays quiet for `idle` seconds; answers go to `output`.
    public func serve(input: Int32 = 0, output: Int32 = 1) {
        signal(SIGPIPE, SIG_IGN)
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !poisoned {
            while let nl = buffer.firstIndex(of: 0x0A) {
                let line = Data(buffer[..<nl])
                buffer.removeSubrange(...nl)
                guard let answer = handle(line) else { continue }
                guard Self.writeAll(answer + Data([0x0A]), to: output) else { return }
                if poisoned { return }
            }
            // A request line is at most a configuration and a context: far below this.
            if buffer.count > 4 << 20 { return }
            var p = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(clamping: idle * 1000, to: 0...Int32.max))
            if ready == 0 { return }
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if n <= 0 { return }
            buffer += chunk[0..<n]
        }
    }

    static func writeAll(_ data: Data, to fd: Int32) -> Bool {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// One request line in, one answer line out (nil: a blank line, nothing to answer).
    public func handle(_ line: Data) -> Data? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        guard let request = try? JSONValue.parse(line, maxBytes: 4 << 20), let id = request["id"] else {
            return Self.encode(["id": .null, "error": .string("not a JSON request")])
        }
        let method = request["method"]?.string ?? ""
        let params = request["params"] ?? .object([:])
        do {
            let answer: ProviderWire.Answer
            switch method {
            case "describe":
                return Self.encode(["id": id, "result": .object(["kinds": .array(bundle.kinds.map { .string($0) })])])
            case "timeline":
                return try timelineLine(id: id, ProviderWire.decode(ProviderWire.TimelineRequest.self, from: params))
            case "perform":
                answer = try perform(ProviderWire.decode(ProviderWire.PerformRequest.self, from: params))
            case "options":
                answer = try options(ProviderWire.decode(ProviderWire.OptionsRequest.self, from: params))
            default:
                return Self.encode(["id": id, "error": .string("unknown method \(TextSanitizer.singleLine(method))")])
            }
            return Self.encode(["id": id, "result": try ProviderWire.json(answer)])
        } catch {
            return Self.encode(["id": id, "error": .string(RemoteFailure.message(error))])
        }
    }

    static func encode(_ object: [String: JSONValue]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(JSONValue.object(object))) ?? Data("{\"error\":\"cannot encode\"}".utf8)
    }

    func widget(_ kind: String) throws -> Widget {
        guard let w = bundle[kind] else {
            throw ProviderWireError("the provider host has no widget \(TextSanitizer.singleLine(kind).prefix(60))")
        }
        return w
    }

    /// The answer line to a `timeline` request. The entries, encoded by the widget as the cache
    /// keeps them, go into the line as they are, not through `JSONValue` and Codable again
    /// (issue 25.3: a thousand loads' answers cost the host and the home screen more than their
    /// providers); the home screen reads the line straight into the widget's entries
    /// (`Widget.decodeTimelineLine`). A failure or a timeout is an `Answer` as for the others.
    func timelineLine(id: JSONValue, _ r: ProviderWire.TimelineRequest) throws -> Data {
        let w = try widget(r.kind)
        let context = try r.context.context()
        let result = run(timeout: w.timeout, { try await w.timeline(for: r.configuration, in: context) })
        guard case .success(let t) = result else {
            return Self.encode(["id": id, "result": try ProviderWire.json(answer(result) { _, _ in })])
        }
        let entries = try w.encodeEntries(t.entries)
        try JSONValue.checkLimits(entries, maxBytes: 64 << 20, maxDepth: 256)
        var line = Data(#"{"id":"#.utf8)
        line += try JSONEncoder.dash.encode(id)
        line += Data(#","result":{"entries":"#.utf8)
        line += entries
        line += Data(#","policy":"#.utf8)
        line += try JSONEncoder.dash.encode(t.policy)
        line += Data("}}".utf8)
        return line
    }

    func perform(_ r: ProviderWire.PerformRequest) throws -> ProviderWire.Answer {
        let w = try widget(r.kind)
        let context = try r.context.context()
        let result = run(
            timeout: w.actionTimeout, { try await w.perform(r.action, configuration: r.configuration, in: context) })
        return answer(result) { $0.inverse = $1 }
    }

    func options(_ r: ProviderWire.OptionsRequest) throws -> ProviderWire.Answer {
        let w = try widget(r.kind)
        guard let load = w.schema.parameters.first(where: { $0.key == r.key })?.dynamicOptions else {
            throw ProviderWireError("\(r.kind) has no options for \(TextSanitizer.singleLine(r.key).prefix(60))")
        }
        return answer(run(timeout: 15, { try await load(r.configuration) })) {
            $0.options = $1.map(ProviderWire.Option.init)
        }
    }

    /// A provider's result as an answer: `fill` takes a success; a timeout or a failure is said
    /// in `timedOutAfter` or `failure` (worded as the home screen words it).
    func answer<T>(_ result: Result<T, any Error>, _ fill: (inout ProviderWire.Answer, T) throws -> Void) rethrows
        -> ProviderWire.Answer
    {
        var answer = ProviderWire.Answer()
        switch result {
        case .success(let value): try fill(&answer, value)
        case .failure(let e as TimedOut): answer.timedOutAfter = e.seconds
        case .failure(let e): answer.failure = RemoteFailure.message(e)
        }
        return answer
    }

    struct TimedOut: Error {
        var seconds: Double
    }

    /// Runs `work` on the host's providers thread (`HostExecutor`, not Swift concurrency's pool)
    /// and waits at most `timeout` seconds for it. Past `timeout + grace` the work is abandoned
    /// and the host exits after answering: whatever hangs goes with the process.
    func run<T: Sendable>(timeout: TimeInterval, _ work: @escaping @Sendable () async throws -> T) -> Result<
        T, any Error
    > {
        let box = ResultBox<T>()
        let executor = self.executor
        let task = Task.detached(executorPreference: executor) {
            let r: Result<T, any Error>
            do { r = .success(try await work()) } catch { r = .failure(error) }
            box.set(r)
        }
        if let r = box.wait(seconds: timeout) { return r }
        task.cancel()
        if let r = box.wait(seconds: grace), !(r.isCancellation) { return r }
        poisoned = !box.isSet
        return .failure(TimedOut(seconds: timeout))
    }
}

extension Result {
    fileprivate var isCancellation: Bool {
        if case .failure(let e) = self { return e is CancellationError }
        return false
    }
}

/// One result handed from a task to a waiting thread.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<T, any Error>?

    func set(_ r: Result<T, any Error>) {
        condition.lock()
        result = r
        condition.unlock()
        // After unlocking: the waiter, woken under the lock, would find it held and sleep again.
        condition.broadcast()
    }

    var isSet: Bool {
        condition.lock()
        defer { condition.unlock() }
        return result != nil
    }

    func wait(seconds: TimeInterval) -> Result<T, any Error>? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while result == nil {
            if !condition.wait(until: deadline) { break }
        }
        return result
    }
}
