import Foundation
import Yams
import DashWidgets

// A secret setting written as a command (decision 48):
//   apiKey: { command: [secret-tool, lookup, service, newsapi] }
//   token:
//     command: pass show github/token      # a line is split into words, no shell
//     timeout: 20                          # seconds, 1–120 (10)
//   key: { command: "op read op://x/y | head -1", shell: true }
extension SecretCommand {
    static let keys = ["command", "shell", "timeout"]

    static func problem(_ message: String) -> Result<SecretCommand, SecretCommandFailure> {
        .failure(SecretCommandFailure(message))
    }

    /// The command a mapping in home.yaml describes, or what is wrong with it (a message).
    static func parse(_ m: Node.Mapping) -> Result<SecretCommand, SecretCommandFailure> {
        for (k, _) in m where !keys.contains(k.string ?? "") {
            return problem(
                "unknown key `\(YAMLGuard.quoted(k.string ?? "", max: 40))` in a secret's command; expected "
                    + keys.map { "`\($0)`" }.joined(separator: ", "))
        }
        var shell = false
        if let node = m["shell"] {
            switch node.string?.lowercased() {
            case "true", "yes", "on": shell = true
            case "false", "no", "off": shell = false
            default: return problem("`shell` must be true or false")
            }
        }
        var timeout = SecretCommand.defaultTimeout
        if let node = m["timeout"] {
            guard let t = node.string.flatMap({ Int($0) }), SecretCommand.timeouts.contains(t) else {
                return problem(
                    "`timeout` must be a whole number of seconds from \(SecretCommand.timeouts.lowerBound) to "
                        + "\(SecretCommand.timeouts.upperBound)")
            }
            timeout = Double(t)
        }
        let argv: [String]
        if let seq = m["command"]?.sequence {
            let words = seq.compactMap(\.string)
            guard words.count == seq.count else { return problem("`command` must be a list of text items or a line") }
            argv = shell ? [words.joined(separator: " ")] : words
        } else if let line = m["command"]?.string {
            if shell {
                argv = [line]
            } else {
                do { argv = try ShellWords.split(line) } catch {
                    return problem("`command`: \(error) (no shell reads it; `shell: true` for one)")
                }
            }
        } else {
            return problem("a secret's `command` is missing: write `{ command: [program, argument, …] }`")
        }
        guard let first = argv.first, !first.trimmingCharacters(in: .whitespaces).isEmpty else {
            return problem("a secret's `command` is empty")
        }
        return .success(SecretCommand(argv: argv, shell: shell, timeout: timeout))
    }

    /// The command as home.yaml writes it: `{command: [a, b]}` (with `shell`, `timeout` when set).
    var yaml: String {
        let command =
            shell
            ? YAMLScalar.render(argv.joined(separator: " "), inFlow: true)
            : "[" + argv.map { YAMLScalar.render($0, inFlow: true) }.joined(separator: ", ") + "]"
        var parts = ["command: " + command]
        if shell { parts.append("shell: true") }
        if timeout != SecretCommand.defaultTimeout { parts.append("timeout: \(Int(clamping: timeout))") }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}

extension WidgetConfig {
    /// A key's value as home.yaml writes it: the command of a secret that has one, else the value.
    func yamlValue(_ key: String) -> String {
        if let command = secretCommands[key] { return command.yaml }
        return HomeText.value(values[key] ?? .string(""))
    }
}

extension HomeConfig {
    /// The command of the setting `key` written as a mapping: only a secret setting may have one.
    static func secretCommand(_ m: Node.Mapping, key: String, schema: ConfigurationSchema) -> Result<
        SecretCommand, SecretCommandFailure
    > {
        guard let p = schema.parameter(key) else {
            return SecretCommand.problem(
                "no such parameter; this widget has: " + schema.parameters.map(\.key).joined(separator: ", "))
        }
        guard p.isSecret else {
            let secrets = schema.parameters.filter(\.isSecret).map(\.key)
            return SecretCommand.problem(
                "takes a value, not a mapping; only a secret setting"
                    + (secrets.isEmpty ? "" : " (here: \(secrets.joined(separator: ", ")))")
                    + " may come from `{ command: … }`")
        }
        return SecretCommand.parse(m)
    }
}
