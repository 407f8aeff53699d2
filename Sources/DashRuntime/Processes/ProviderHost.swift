import Foundation
import DashWidgets
import DashScheduler
import DashApp
import DashHome
#if canImport(Glibc)
    import Glibc
#endif

/// The home screen's side of the provider host (`swiftdash-fetch --serve`, issue 15): the
/// built-in widgets' providers run there, like WidgetKit's extension processes, so the home
/// screen reads no network bytes, parses no feed and starts no Swift concurrency pool; it only
/// draws. A host is started on demand and exits by itself when idle; each one serves one request
/// at a time, so loads in parallel use up to `maxProcesses` hosts. A host that crashes, hangs
/// or answers garbage is killed with its process group and fails only the request it had.
/// A local widget's next load goes to the host that served the last (the system monitor's
/// samples compare with the previous ones kept there).
public final class ProviderHost: @unchecked Sendable {
    public let path: String
    let environment: [String: String]
    let limits: ExtensionLimits
    let maxProcesses: Int
    let log: @Sendable (String) -> Void
    /// Seconds a request may take past the widget's own timeout (starting the host, the
    /// host's grace) before the host counts as hung and is killed.
    public var slack: TimeInterval = 4
    /// The host's arguments (tests shorten its idle time: `--serve --idle 0.5`).
    public var arguments = ["--serve"]

    private let condition = NSCondition()
    private var idle: [ExtensionProcess] = []
    private var running = 0
    private var affinity: [String: ObjectIdentifier] = [:]
    /// Hosts started (tests and the log).
    public private(set) var started = 0

    public init(
        path: String, environment: [String: String], maxProcesses: Int = 4,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.path = path
        self.environment = environment
        self.maxProcesses = max(1, maxProcesses)
        self.log = log
        var l = ExtensionLimits()
        // Entries of a large calendar or a long feed: more than an extension's view tree.
        l.maxAnswerBytes = 32 << 20
        l.logsCleanExit = false
        self.limits = l
    }

    /// The built-in widgets of `bundle` with their providers in the host; placeholders,
    /// views and details stay here.
    public func bundle(_ bundle: WidgetBundle, kinds: Set<String>) -> WidgetBundle {
        WidgetBundle(bundle.widgets.map { kinds.contains($0.kind) ? remote($0) : $0 })
    }

    /// `widget`, its timeline, actions and dynamic options asked of the host.
    public func remote(_ widget: Widget) -> Widget {
        let kind = widget.kind
        let timeout = widget.timeout
        var provider = RemoteProvider(timeline: { [self] config, context in
            let request = ProviderWire.TimelineRequest(kind: kind, configuration: config, context: context)
            let line = try exchange("timeline", request, timeout: timeout, instance: context.instanceID) {
                try $0.requestLine("timeline", params: $1, timeout: $2)
            }
            let answer: ProviderWire.TimelineAnswer
            do { answer = try widget.decodeTimelineLine(line) } catch {
                throw ProviderWireError("the provider host's timeline answer cannot be read")
            }
            if let t = answer.timedOutAfter { throw LoadTimeoutError(timeout: t) }
            if let f = answer.failure { throw RemoteFailure(f) }
            guard let entries = answer.entries, let policy = answer.policy else {
                throw ProviderWireError("the provider host answered a timeline without entries")
            }
            return AnyTimeline(entries: entries, policy: policy)
        })
        if widget.isInteractive {
            let actionTimeout = widget.actionTimeout
            provider.perform = { [self] action, config, context in
                let request = ProviderWire.PerformRequest(
                    kind: kind, action: action, configuration: config, context: context)
                let answer = try ask("perform", request, timeout: actionTimeout, instance: context.instanceID)
                return answer.inverse
            }
        }
        if widget.schema.parameters.contains(where: { $0.dynamicOptions != nil }) {
            provider.options = { [self] key, config in
                let request = ProviderWire.OptionsRequest(kind: kind, key: key, configuration: config)
                let answer = try ask("options", request, timeout: EditEffects.optionsTimeout, instance: nil)
                return (answer.options ?? []).map(\.option)
            }
        }
        return widget.running(provider)
    }

    /// Sends one request to a free host and decodes its answer; the provider's own failure or
    /// timeout is thrown as it would be in this process.
    func ask<R: Encodable>(_ method: String, _ request: R, timeout: TimeInterval, instance: String?) throws
        -> ProviderWire.Answer
    {
        let result = try exchange(method, request, timeout: timeout, instance: instance) {
            try $0.request(method, params: $1, timeout: $2)
        }
        let answer: ProviderWire.Answer
        do {
            answer = try ProviderWire.Answer(result)
        } catch {
            throw ProviderWireError("the provider host's \(method) answer cannot be read")
        }
        if let t = answer.timedOutAfter { throw LoadTimeoutError(timeout: t) }
        if let f = answer.failure { throw RemoteFailure(f) }
        return answer
    }

    /// Sends one request to a free host (`send`: how, and what comes back) and gives the host
    /// back; a host that failed (crashed, hung, garbage) is gone, and the next request starts
    /// another.
    func exchange<R: Encodable, T>(
        _ method: String, _ request: R, timeout: TimeInterval, instance: String?,
        send: (ExtensionProcess, [String: JSONValue], TimeInterval) throws -> T
    ) throws -> T {
        guard case .object(let params) = try ProviderWire.json(request) else {
            throw ProviderWireError("cannot encode the \(method) request")
        }
        let seconds = timeout + slack
        let deadline = Date().addingTimeInterval(seconds)
        let process = try take(instance: instance, until: deadline)
        let result: T
        do {
            result = try send(process, params, max(0.1, deadline.timeIntervalSinceNow))
        } catch {
            discard(process)
            throw error
        }
        give(back: process, instance: instance)
        // The answer is read: what is left (decoding it) may wait for the loop.
        OffLoopThread.yieldAfterTheAnswer()
        return result
    }

    private func take(instance: String?, until deadline: Date) throws -> ExtensionProcess {
        condition.lock()
        defer { condition.unlock() }
        while true {
            // Hosts that exited while idle are reaped and forgotten.
            let exited = idle.filter { $0.hasExited() }.map(ObjectIdentifier.init)
            if !exited.isEmpty {
                idle.removeAll { exited.contains(ObjectIdentifier($0)) }
                running -= exited.count
                affinity = affinity.filter { !exited.contains($0.value) }
            }
            if let instance, let want = affinity[instance],
                let i = idle.firstIndex(where: { ObjectIdentifier($0) == want })
            {
                return idle.remove(at: i)
            }
            // Keep hosts that local widgets are pinned to for them, when another is free.
            let pinned = Set(affinity.values)
            if let i = idle.lastIndex(where: { !pinned.contains(ObjectIdentifier($0)) }) ?? idle.indices.last {
                let p = idle.remove(at: i)
                if let instance { affinity[instance] = ObjectIdentifier(p) }
                return p
            }
            if running < maxProcesses {
                running += 1
                started += 1
                let p = ExtensionProcess(
                    path: path, arguments: arguments, name: "provider host", environment: environment,
                    limits: limits, log: log)
                if let instance { affinity[instance] = ObjectIdentifier(p) }
                return p
            }
            guard condition.wait(until: deadline) else {
                throw ProviderWireError("every provider host is busy")
            }
        }
    }

    private func give(back process: ExtensionProcess, instance: String?) {
        condition.lock()
        idle.append(process)
        condition.signal()
        condition.unlock()
    }

    private func discard(_ process: ExtensionProcess) {
        process.stop()
        condition.lock()
        running -= 1
        let id = ObjectIdentifier(process)
        affinity = affinity.filter { $0.value != id }
        condition.signal()
        condition.unlock()
    }

    /// Ends every idle host (at quit; busy ones end with their request).
    public func stop() {
        condition.lock()
        let all = idle
        idle = []
        running -= all.count
        condition.unlock()
        for p in all { p.stop() }
    }

    /// Hosts running now (tests).
    public var processIDs: [pid_t] {
        condition.lock()
        defer { condition.unlock() }
        return idle.compactMap(\.processID)
    }
}
