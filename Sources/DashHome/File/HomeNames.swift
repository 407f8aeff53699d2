import Foundation

/// Which home screen a process uses (decision 47): `home.yaml`, a named home
/// (`home-NAME.yaml` beside it, `swiftdash --home NAME`), or any file (`--config FILE`). The
/// choice travels in `SWIFTDASH_HOME` (a name, or an absolute path), so every `AppPaths` of the
/// process and of its children (the provider host, extensions) agrees on the file, the cache and
/// state folders and the control socket. Each named home keeps its own cache and state
/// (`homes/NAME` under both): ids like `w1` mean another widget in another home.
public enum HomeChoice: Hashable, Sendable {
    case standard
    case named(String)
    case file(String)

    /// The environment variable that carries the choice.
    public static let variable = "SWIFTDASH_HOME"

    /// The choice `env` holds; `standard` when the variable is unset, empty, `default` or not a
    /// usable name (the command line checks it first: `problem(name:)`).
    public init(environment env: [String: String]) {
        guard let v = env[Self.variable], !v.isEmpty, v != "default" else {
            self = .standard
            return
        }
        if v.hasPrefix("/") {
            self = .file(v)
        } else if Self.problem(name: v) == nil {
            self = .named(v)
        } else {
            self = .standard
        }
    }

    /// What the variable holds for this choice (nil: unset).
    public var value: String? {
        switch self {
        case .standard: return nil
        case .named(let n): return n
        case .file(let p): return p
        }
    }

    /// Why `name` cannot name a home, or nil: 1–40 letters, digits, `-`, `_` or `.`, starting
    /// with a letter or digit (it becomes part of a file name, a folder and a shell completion).
    public static func problem(name: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard (1...40).contains(name.count), name.allSatisfy({ allowed.contains($0) }),
            let first = name.first, first.isLetter || first.isNumber
        else {
            return "a home's name is 1 to 40 letters, digits, '-', '_' or '.', starting with a letter or digit"
        }
        return nil
    }

    /// The file of this home in the configuration folder `config`.
    public func file(in config: URL) -> URL {
        switch self {
        case .standard: return config.appendingPathComponent("home.yaml")
        case .named(let n): return config.appendingPathComponent("home-\(n).yaml")
        case .file(let p): return URL(fileURLWithPath: p)
        }
    }

    /// The folder under the cache and state folders this home keeps its own files in (nil: the
    /// folders themselves, as before named homes).
    public var folder: String? {
        switch self {
        case .standard: return nil
        case .named(let n): return "homes/\(n)"
        case .file(let p):
            return "homes/file-"
                + String(SecretFingerprint.fnv1a(URL(fileURLWithPath: p).standardizedFileURL.path), radix: 16)
        }
    }
}
