import Foundation
import Yams
import DashWidgets

/// One widget on the home screen: its kind and its own configuration.
public struct WidgetInstance: Hashable, Sendable {
    public var id: String
    public var kind: String
    public var config: WidgetConfig
    public init(id: String, kind: String, config: WidgetConfig = WidgetConfig()) {
        self.id = id
        self.kind = kind
        self.config = config
    }
}

/// One slot of the home screen: a family and one widget, or several (a stack).
public struct TileInstance: Hashable, Sendable {
    public var id: String
    public var family: WidgetFamily
    public var items: [WidgetInstance]
    /// Smart Rotate for a stack (`smartRotate`, `dwell`, `pause`).
    public var rotation = StackRotation()
    /// How the tile asks for a look when it shows something new or relevant (`attention`).
    public var attention = AttentionMode.highlight
    public init(id: String, family: WidgetFamily, items: [WidgetInstance]) {
        self.id = id
        self.family = family
        self.items = items
    }
}

/// The home screen as the user configured it (`home.yaml`).
public struct HomeConfig: Hashable, Sendable {
    public var theme: String?
    /// The line `theme:` is on, for errors about it.
    public var themeLine: Int?
    /// Changing a tile drops the lookup index (`HomeLookup`); the next lookup builds it again.
    public var tiles: [TileInstance] { didSet { lookup = HomeLookup() } }
    /// Tiles and widgets by id, so a lookup is not a scan (HomeLookup.swift).
    package var lookup = HomeLookup()
    /// Extension executables to describe at start besides those in the widgets folder (`extensions:`).
    public var extensions: [String] = []
    public init(theme: String? = nil, tiles: [TileInstance]) {
        self.theme = theme
        self.tiles = tiles
    }

    public var allInstances: [WidgetInstance] { tiles.flatMap(\.items) }
}

/// Where reading a configuration file puts its problems: thrown at the first (reading the
/// file for use), or kept to go on and find the others (`swiftdash config check`).
package struct ConfigProblems {
    let collecting: Bool
    package private(set) var found: [ConfigFileError] = []
    package init(collecting: Bool) { self.collecting = collecting }

    package mutating func add(_ problem: ConfigFileError) throws {
        guard collecting else { throw problem }
        found.append(problem)
    }
}

/// A configuration problem with the file position it came from.
public struct ConfigFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int?
    public var message: String
    /// The error says a theme does not exist (the file to blame is whatever named it).
    public var isMissingTheme = false
    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}

extension HomeConfig {
    /// The home screen a first run shows: works offline (the network widgets show their
    /// placeholder and then a stale mark until the network answers).
    public static func defaultHome(bundle: WidgetBundle) -> HomeConfig {
        var tiles: [TileInstance] = []
        var n = 0
        func add(_ family: WidgetFamily, _ kinds: [(String, [String: ConfigValue])]) {
            let items = kinds.compactMap { kind, values -> WidgetInstance? in
                guard bundle[kind] != nil else { return nil }
                n += 1
                return WidgetInstance(id: "w\(n)", kind: kind, config: WidgetConfig(values))
            }
            guard !items.isEmpty else { return }
            tiles.append(TileInstance(id: "t\(tiles.count + 1)", family: family, items: items))
        }
        // No widget twice, and most of it works with no network on a first run: the clock,
        // the machine, a sample agenda and the to-do list; news and prices say "offline"
        // quietly and retry by themselves.
        add(.small, [("clock", [:])])
        add(.small, [("system", [:])])
        add(.medium, [("news", [:])])
        add(.large, [("calendar", [:])])
        add(.medium, [("crypto", [:])])
        add(.medium, [("reminders", [:])])
        return HomeConfig(tiles: tiles)
    }

    /// `parse(yaml:)` from the file's bytes: a byte that is not UTF-8 is reported with its line.
    public static func parse(data: Data, file: String, bundle: WidgetBundle) throws -> HomeConfig {
        let text = try YAMLGuard.text(data, file: file, maxBytes: ConfigLimits.maxHomeBytes, what: "home.yaml")
        return try parse(yaml: text, file: file, bundle: bundle)
    }

    /// Reads `home.yaml`. Every problem names the line; unknown widgets and invalid
    /// values are errors, not silently dropped.
    public static func parse(yaml text: String, file: String, bundle: WidgetBundle) throws -> HomeConfig {
        var problems = ConfigProblems(collecting: false)
        return try parse(yaml: text, file: file, bundle: bundle, problems: &problems)
    }

    /// `parse(yaml:)` that hands each problem to `problems`: stopping at the first (`parse`), or
    /// going on past it (`swiftdash config check`). What the YAML reader refuses still throws.
    package static func parse(yaml text: String, file: String, bundle: WidgetBundle, problems: inout ConfigProblems) throws
        -> HomeConfig
    {
        guard let root = try YAMLGuard.compose(text, file: file) else {
            throw ConfigFileError(
                file: file, line: nil,
                message: ConfigFile.emptyMessage(text)
                    + ": add a `tiles:` list (or remove the file for the default home screen)")
        }
        guard let map = root.mapping else {
            throw ConfigFileError(file: file, line: root.mark?.line, message: "expected a mapping with a `tiles:` list")
        }
        var config = HomeConfig(tiles: [])
        for (k, v) in map {
            guard let key = k.string else { continue }
            switch key {
            case "theme":
                // A name that names a file: no control characters (they would only show as blanks).
                guard let name = v.string, !name.isEmpty, TextSanitizer.clean(name) == name else {
                    try problems.add(
                        ConfigFileError(
                            file: file, line: v.mark?.line,
                            message: "`theme` must be a theme name such as dark or light"))
                    continue
                }
                config.theme = name
                config.themeLine = v.mark?.line
            case "tiles":
                guard let seq = v.sequence else {
                    try problems.add(ConfigFileError(file: file, line: v.mark?.line, message: "`tiles` must be a list"))
                    continue
                }
                if seq.count > ConfigLimits.maxTiles {
                    try problems.add(
                        ConfigFileError(
                            file: file, line: k.mark?.line,
                            message: "`tiles` lists \(YAMLGuard.grouped(seq.count)) tiles; at most "
                                + "\(YAMLGuard.grouped(ConfigLimits.maxTiles))"))
                    continue
                }
                var n = 0
                var widgets = 0
                for (i, t) in seq.enumerated() {
                    // Counted as the file expands: `stack: *shared` in every tile counts each time.
                    widgets += max(1, t.mergedMapping?["stack"]?.sequence?.count ?? 1)
                    if widgets > ConfigLimits.maxWidgets {
                        try problems.add(
                            ConfigFileError(
                                file: file, line: t.mark?.line ?? k.mark?.line,
                                message: "tile \(i + 1) brings the widgets to \(YAMLGuard.grouped(widgets)) "
                                    + "(a stack shared through an alias counts in every tile); at most "
                                    + "\(YAMLGuard.grouped(ConfigLimits.maxWidgets)) in all"))
                        break
                    }
                    let tile = try parseTile(
                        t, index: i, counter: &n, file: file, bundle: bundle, problems: &problems)
                    if let tile { config.tiles.append(tile) }
                }
            case "extensions":
                do { config.extensions = try extensionList(v, file: file) } catch let e as ConfigFileError {
                    try problems.add(e)
                }
            default:
                try problems.add(
                    ConfigFileError(
                        file: file, line: k.mark?.line,
                        message: "unknown key `\(shown(key))`; expected `theme`, `tiles` or `extensions`"))
            }
        }
        return config
    }

    /// One tile, or nil when it has problems (each handed to `problems`, which stops at the
    /// first or goes on to find the others: every key, every stack item, every value).
    static func parseTile(
        _ node: Node, index: Int, counter: inout Int, file: String, bundle: WidgetBundle,
        problems: inout ConfigProblems
    ) throws -> TileInstance? {
        if let kind = node.string, !["", "~", "null"].contains(kind) {
            do {
                return try shorthandTile(kind, node: node, index: index, counter: &counter, file: file, bundle: bundle)
            } catch let e as ConfigFileError {
                try problems.add(e)
                return nil
            }
        }
        guard let map = node.mergedMapping else {
            try problems.add(
                ConfigFileError(
                    file: file, line: node.mark?.line,
                    message: "each tile must be a widget name or a mapping with `family` and `widget` or `stack`"))
            return nil
        }
        let before = problems.found.count
        func fail(_ line: Int?, _ message: String) throws {
            try problems.add(ConfigFileError(file: file, line: line, message: message))
        }
        let tileKeys = ["family", "widget", "config", "stack"] + smartStackKeys
        for (k, _) in map where !tileKeys.contains(k.string ?? "") {
            try fail(
                k.mark?.line,
                "unknown key `\(shown(k.string ?? ""))` in a tile; expected "
                    + tileKeys.map { "`\($0)`" }.joined(separator: ", "))
        }
        let famName = map["family"]?.string ?? "small"
        let family = WidgetFamily(rawValue: famName)
        if family == nil {
            try fail(
                map["family"]?.mark?.line ?? node.mark?.line,
                "unknown family `\(shown(famName))`; use one of "
                    + WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var itemNodes: [Node] = []
        let isStack = map["stack"] != nil
        if let stack = map["stack"] {
            if let seq = stack.sequence, !seq.isEmpty {
                if seq.count > ConfigLimits.maxStackItems {
                    try fail(
                        stack.mark?.line, "a stack of \(seq.count) widgets; at most \(ConfigLimits.maxStackItems)")
                }
                itemNodes = Array(seq)
            } else {
                try fail(stack.mark?.line, "`stack` must be a non-empty list of widgets")
            }
        } else {
            itemNodes = [node]
        }
        var items: [WidgetInstance] = []
        for item in itemNodes {
            guard let m = item.mergedMapping, let kindNode = m["widget"], let kind = kindNode.string else {
                try fail(item.mark?.line, "a tile needs `widget: KIND`")
                continue
            }
            if isStack {
                for (k, _) in m where !["widget", "config"].contains(k.string ?? "") {
                    try fail(
                        k.mark?.line,
                        "unknown key `\(shown(k.string ?? ""))` in a stack item; expected `widget` and `config`")
                }
            }
            guard let widget = bundle[kind] else {
                try fail(
                    kindNode.mark?.line,
                    "unknown widget `\(shown(kind))`; available: " + bundle.kinds.joined(separator: ", "))
                continue
            }
            if let family, !widget.supports(family) {
                try fail(
                    kindNode.mark?.line,
                    "`\(kind)` has no \(family.rawValue) size; it supports "
                        + widget.supportedFamilies.map(\.rawValue).joined(separator: ", "))
            }
            var config = WidgetConfig()
            if let cfg = m["config"] {
                guard let cm = cfg.mergedMapping else {
                    try fail(cfg.mark?.line, "`config` must be a mapping of parameter: value")
                    continue
                }
                for (ck, cv) in cm {
                    let key = ck.string ?? ""
                    if let m = cv.mapping {
                        // A secret's value from a command (SecretCommandConfig.swift, decision 48).
                        switch secretCommand(m, key: key, schema: widget.schema) {
                        case .success(let command):
                            config[key] = .string("")
                            config.secretCommands[key] = command
                        case .failure(let problem):
                            try fail(cv.mark?.line, shown("\(kind): \(key): \(problem.message)", quoting: [key]))
                        }
                        continue
                    }
                    let text: String
                    // A sequence's items are kept as they are (a command's argv byte for byte).
                    var items: [String]? = nil
                    if let seq = cv.sequence {
                        let strings = seq.compactMap(\.string)
                        guard strings.count == seq.count else {
                            try fail(cv.mark?.line, "\(kind): `\(shown(key))` must be a list of text items")
                            continue
                        }
                        items = strings
                        text = strings.joined(separator: ",")
                    } else {
                        text = cv.string ?? ""
                    }
                    if text.utf8.count > ConfigLimits.maxValueCharacters, text.count > ConfigLimits.maxValueCharacters {
                        try fail(
                            ck.mark?.line,
                            "\(kind): `\(YAMLGuard.quoted(key, max: 40))` is "
                                + "\(YAMLGuard.grouped(text.count)) characters long; at most "
                                + "\(YAMLGuard.grouped(ConfigLimits.maxValueCharacters))")
                        continue
                    }
                    do {
                        if let items {
                            config[key] = try widget.schema.parse(key: key, items: items)
                        } else {
                            config[key] = try widget.schema.parse(key: key, text: text)
                        }
                    } catch {
                        // The schema quotes the value trimmed; the cap covers the whole message.
                        let trimmed = text.trimmingCharacters(in: .whitespaces)
                        try fail(ck.mark?.line, shown("\(kind): \(error.description)", quoting: [key, text, trimmed]))
                    }
                }
            }
            counter += 1
            items.append(WidgetInstance(id: "w\(counter)", kind: kind, config: config))
        }
        var tile = TileInstance(id: "t\(index + 1)", family: family ?? .small, items: items)
        try parseSmartStack(map, into: &tile, file: file, problems: &problems)
        return problems.found.count == before ? tile : nil
    }

}

/// A value from the file as an error message quotes it: one line, no control or bidi
/// characters, at most 60 characters (the fuzz test found 2 KB keys and tabs quoted raw).
package func shown(_ s: String) -> String { YAMLGuard.quoted(s, max: 60) }

/// A message that quotes `values` from the file: each shown as `shown(_:)`, the rest of
/// the message kept whole.
package func shown(_ message: String, quoting values: [String]) -> String {
    var m = message
    for v in values where v.count > 60 || v != shown(v) { m = m.replacingOccurrences(of: v, with: shown(v)) }
    return YAMLGuard.quoted(m, max: 400)
}

/// What the files the user owns (home.yaml, themes) say (DashHomeFiles reads them).
package enum ConfigFile {
    /// What an empty document holds: nothing at all, or only comments.
    package static func emptyMessage(_ text: String) -> String {
        let blank = text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        return blank ? "the file is empty" : "the file has only comments"
    }
}
