import Foundation

/// A secret setting (an API key, a token) whose value a command prints, written in home.yaml as
/// `apiKey: { command: [secret-tool, lookup, service, x] }` or `{ command: "pass show x" }`
/// (decision 48). The runtime runs it without a shell (unless `shell: true`), with a timeout, off
/// the loop thread, and keeps the first line of what it prints in memory for the session; the
/// value is never written to a file, logged or drawn.
public struct SecretCommand: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The program and its arguments, byte for byte (with `shell`, one line for `sh -c`).
    public var argv: [String]
    /// The line goes to `sh -c` whole (only when the file says `shell: true`).
    public var shell: Bool
    /// Seconds the command may take.
    public var timeout: Double

    public static let defaultTimeout: Double = 10
    public static let timeouts: ClosedRange<Int> = 1...120

    public init(argv: [String], shell: Bool = false, timeout: Double = SecretCommand.defaultTimeout) {
        self.argv = argv
        self.shell = shell
        self.timeout = timeout
    }

    /// What is run: `argv`, or `sh -c LINE`.
    public var command: [String] { shell ? ["/bin/sh", "-c", argv.joined(separator: " ")] : argv }

    /// The command as a user would type it, for messages (its words are the user's own file's).
    public var description: String {
        TextSanitizer.singleLine(shell ? argv.joined(separator: " ") : ShellWords.join(argv))
    }
}

/// Why a secret's command gave no value; the message names the setting and says what to do.
public struct SecretCommandFailure: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    public var message: String
    public init(_ message: String) { self.message = TextSanitizer.singleLine(message) }
    public var description: String { message }
    public var errorDescription: String? { message }

    /// The message a tile shows for the setting `key` whose command failed with `reason`.
    public static func forSetting(_ key: String, command: SecretCommand, reason: String) -> SecretCommandFailure {
        SecretCommandFailure(
            "\(key): the command `\(command)` \(reason); run it in a terminal to check it, then press r")
    }
}
