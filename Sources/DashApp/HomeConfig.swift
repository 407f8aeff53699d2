import Foundation
import Yams
import DashWidgets

/// One widget on the home screen: its kind and its own configuration.
public struct WidgetInstance: Hashable, Sendable {
    public var id: String
    public var kind: String
    public var config: WidgetConfig
    public init(id: String, kind: String, config: WidgetConfig = WidgetConfig()) {
        self.id = id; self.kind = kind; self.config = config
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
        self.id = id; self.family = family; self.items = items
    }
}

/// The home screen as the user configured it (`home.yaml`).
public struct HomeConfig: Hashable, Sendable {
    public var theme: String?
    /// The line `theme:` is on, for errors about it.
    public var themeLine: Int?
    public var tiles: [TileInstance]
    public init(theme: String? = nil, tiles: [TileInstance]) { self.theme = theme; self.tiles = tiles }

    public var allInstances: [WidgetInstance] { tiles.flatMap(\.items) }
}

/// A configuration problem with the file position it came from.
public struct ConfigFileError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int?
    public var message: String
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
        add(.small, [("clock", [:])])
        add(.small, [("crypto", [:])])
        add(.medium, [("news", [:])])
        add(.medium, [("commits", [:])])
        add(.large, [("clock", ["label": .string("Calendar")])])
        add(.medium, [("crypto", ["coin": .string("ETH")])])
        return HomeConfig(tiles: tiles)
    }

    /// Reads `home.yaml`. Every problem names the line; unknown widgets and invalid
    /// values are errors, not silently dropped.
    public static func parse(yaml text: String, file: String, bundle: WidgetBundle) throws -> HomeConfig {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let e as YamlError {
            throw ConfigFileError(file: file, line: Self.line(of: e), message: "not valid YAML: \(Self.reason(of: e))")
        }
        guard let root, let map = root.mapping else {
            throw ConfigFileError(file: file, line: root?.mark?.line, message: "expected a mapping with a `tiles:` list")
        }
        var config = HomeConfig(tiles: [])
        for (k, v) in map {
            guard let key = k.string else { continue }
            switch key {
            case "theme":
                guard let name = v.string, !name.isEmpty else {
                    throw ConfigFileError(file: file, line: v.mark?.line, message: "`theme` must be a theme name such as dark or light")
                }
                config.theme = name
                config.themeLine = v.mark?.line
            case "tiles":
                guard let seq = v.sequence else { throw ConfigFileError(file: file, line: v.mark?.line, message: "`tiles` must be a list") }
                var n = 0
                for (i, t) in seq.enumerated() {
                    config.tiles.append(try parseTile(t, index: i, counter: &n, file: file, bundle: bundle))
                }
            default:
                throw ConfigFileError(file: file, line: k.mark?.line, message: "unknown key `\(key)`; expected `theme` or `tiles`")
            }
        }
        return config
    }

    static func parseTile(_ node: Node, index: Int, counter: inout Int, file: String, bundle: WidgetBundle) throws -> TileInstance {
        guard let map = node.mapping else {
            throw ConfigFileError(file: file, line: node.mark?.line, message: "each tile must be a mapping with `family` and `widget` or `stack`")
        }
        let tileKeys = ["family", "widget", "config", "stack"] + smartStackKeys
        for (k, _) in map {
            guard let key = k.string, tileKeys.contains(key) else {
                throw ConfigFileError(file: file, line: k.mark?.line,
                                      message: "unknown key `\(k.string ?? "")` in a tile; expected \(tileKeys.map { "`\($0)`" }.joined(separator: ", "))")
            }
        }
        let famName = map["family"]?.string ?? "small"
        guard let family = WidgetFamily(rawValue: famName) else {
            throw ConfigFileError(file: file, line: map["family"]?.mark?.line ?? node.mark?.line,
                                  message: "unknown family `\(famName)`; use one of \(WidgetFamily.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var itemNodes: [Node] = []
        if let stack = map["stack"] {
            guard let seq = stack.sequence, !seq.isEmpty else {
                throw ConfigFileError(file: file, line: stack.mark?.line, message: "`stack` must be a non-empty list of widgets")
            }
            itemNodes = Array(seq)
        } else {
            itemNodes = [node]
        }
        var items: [WidgetInstance] = []
        for item in itemNodes {
            guard let m = item.mapping, let kindNode = m["widget"], let kind = kindNode.string else {
                throw ConfigFileError(file: file, line: item.mark?.line, message: "a tile needs `widget: KIND`")
            }
            if item != node {
                for (k, _) in m where !["widget", "config"].contains(k.string ?? "") {
                    throw ConfigFileError(file: file, line: k.mark?.line,
                                          message: "unknown key `\(k.string ?? "")` in a stack item; expected `widget` and `config`")
                }
            }
            guard let widget = bundle[kind] else {
                throw ConfigFileError(file: file, line: kindNode.mark?.line,
                                      message: "unknown widget `\(kind)`; available: \(bundle.kinds.joined(separator: ", "))")
            }
            guard widget.supports(family) else {
                throw ConfigFileError(file: file, line: kindNode.mark?.line,
                                      message: "`\(kind)` has no \(family.rawValue) size; it supports \(widget.supportedFamilies.map(\.rawValue).joined(separator: ", "))")
            }
            var config = WidgetConfig()
            if let cfg = m["config"] {
                guard let cm = cfg.mapping else {
                    throw ConfigFileError(file: file, line: cfg.mark?.line, message: "`config` must be a mapping of parameter: value")
                }
                for (ck, cv) in cm {
                    let key = ck.string ?? ""
                    let text: String
                    if let seq = cv.sequence { text = seq.compactMap(\.string).joined(separator: ",") } else { text = cv.string ?? "" }
                    do {
                        config[key] = try widget.schema.parse(key: key, text: text)
                    } catch {
                        throw ConfigFileError(file: file, line: ck.mark?.line, message: "\(kind): \(error.description)")
                    }
                }
            }
            counter += 1
            items.append(WidgetInstance(id: "w\(counter)", kind: kind, config: config))
        }
        var tile = TileInstance(id: "t\(index + 1)", family: family, items: items)
        try parseSmartStack(map, into: &tile, file: file)
        return tile
    }

    static func line(of e: YamlError) -> Int? {
        switch e {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return mark.line
        default: return nil
        }
    }
    static func reason(of e: YamlError) -> String {
        switch e {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return problem
        default: return "\(e)"
        }
    }
}
