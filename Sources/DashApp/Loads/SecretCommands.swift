import Foundation
import DashWidgets
import DashScheduler
import DashHome

/// A secret a command printed: shown as dots wherever it is described (a message dump, a log).
public struct SecretText: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String
    public init(_ value: String) { self.value = value }
    public var description: String { "•••" }
    public var debugDescription: String { "•••" }
}

/// What the app knows of secrets' commands (decision 48): the values they printed, kept in
/// memory for the session and never written anywhere; the commands running; the loads waiting
/// for them. A failure is not kept: the next load of a tile that uses the command runs it again
/// (when the scheduler's back-off says), so unlocking the keyring and pressing r is enough.
public struct SecretCommandState: Sendable, CustomStringConvertible {
    var values: [SecretCommand: SecretText] = [:]
    var running: Set<SecretCommand> = []
    var waiting: [LoadRequest] = []
    public init() {}
    public var description: String {
        "secrets: \(values.count) known, \(running.count) running, \(waiting.count) loads waiting"
    }
    /// Loads waiting for a command (tests and `timeline` look).
    public var waitingLoads: Int { waiting.count }
}

enum SecretCommands {
    /// `config` with the secrets its commands printed this session filled in (the form's preview).
    static func filled(_ config: WidgetConfig, _ s: AppState) -> WidgetConfig {
        var out = config
        for (key, command) in config.secretCommands {
            if let v = s.secrets.values[command] { out[key] = .string(v.value) }
        }
        return out
    }

    /// The effects that start the load `r`: the load itself with every secret its commands
    /// printed filled in, or the commands it still waits for (the load waits here).
    static func start(_ s: inout AppState, _ r: LoadRequest) -> [Effect] {
        let commands = r.configuration.secretCommands
        guard !commands.isEmpty else { return [.startLoad(s.job(for: r))] }
        var job = s.job(for: r)
        var missing: Set<SecretCommand> = []
        for (key, command) in commands {
            if let v = s.secrets.values[command] {
                job.request.configuration[key] = .string(v.value)
            } else {
                missing.insert(command)
            }
        }
        guard !missing.isEmpty else { return [.startLoad(job)] }
        s.secrets.waiting.append(r)
        var fx: [Effect] = []
        for c in missing.sorted(by: { $0.description < $1.description }) where !s.secrets.running.contains(c) {
            s.secrets.running.insert(c)
            fx.append(.runSecretCommand(c))
        }
        return fx
    }

    /// A command ended: its value kept and the loads that waited for it started, or each of
    /// them failed with a message that names the setting and says what to do.
    static func finished(_ s: inout AppState, _ c: SecretCommand, _ result: Result<SecretText, SecretCommandFailure>)
        -> [Effect]
    {
        s.secrets.running.remove(c)
        if case .success(let v) = result { s.secrets.values[c] = v }
        let uses = { (r: LoadRequest) in r.configuration.secretCommands.values.contains(c) }
        let waiting = s.secrets.waiting.filter(uses)
        s.secrets.waiting.removeAll(where: uses)
        var fx: [Effect] = []
        for r in waiting {
            switch result {
            case .success:
                fx += start(&s, r)
            case .failure(let f):
                let key = r.configuration.secretCommands.first { $0.value == c }?.key ?? "a secret"
                let failure = SecretCommandFailure.forSetting(key, command: c, reason: f.message)
                fx.append(.log("\(r.id): \(failure.message)"))
                s.scheduler.loadFinished(r.id, token: r.token, result: .failure(failure), at: s.now)
            }
        }
        return fx
    }
}
