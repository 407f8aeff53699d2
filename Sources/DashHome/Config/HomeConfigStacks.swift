import Foundation
import Yams
import DashScheduler

/// Smart Rotate settings of one stack, from `home.yaml`.
public struct StackRotation: Hashable, Sendable {
    /// `smartRotate: false` leaves the stack to the user's `<` `>`.
    public var smartRotate = true
    /// `dwell: 15m`: the least time an item stays after a change.
    public var dwell: TimeInterval = SmartRotateSettings.standard.dwell
    /// `pause: 1h`: how long a manual rotation keeps Smart Rotate away.
    public var pause: TimeInterval = SmartRotateSettings.standard.pause

    public init(
        smartRotate: Bool = true, dwell: TimeInterval = SmartRotateSettings.standard.dwell,
        pause: TimeInterval = SmartRotateSettings.standard.pause
    ) {
        self.smartRotate = smartRotate
        self.dwell = dwell
        self.pause = pause
    }

    public var settings: SmartRotateSettings {
        var s = SmartRotateSettings.standard
        s.dwell = dwell
        s.pause = pause
        return s
    }
}

/// What a tile does when it shows something new or relevant (`attention:` in `home.yaml`).
public enum AttentionMode: String, Hashable, Sendable, CaseIterable {
    /// Marks the tile's frame until it is focused.
    case highlight
    /// Marks it and rings the terminal bell once per entry.
    case bell
    case none
}

extension HomeConfig {
    /// The tile keys Smart Stacks adds.
    static let smartStackKeys = ["smartRotate", "dwell", "pause", "attention"]

    /// Reads `smartRotate`, `dwell`, `pause` and `attention` of a tile.
    static func parseSmartStack(
        _ map: Node.Mapping, into tile: inout TileInstance, file: String, problems: inout ConfigProblems
    ) throws {
        func fail(_ node: Node, _ message: String) throws {
            try problems.add(ConfigFileError(file: file, line: node.mark?.line, message: message))
        }
        if let v = map["smartRotate"] {
            if let on = YAMLGuard.bool(v) {
                tile.rotation.smartRotate = on
            } else {
                try fail(v, "`smartRotate` must be true or false")
            }
        }
        for key in ["dwell", "pause"] {
            guard let v = map[key] else { continue }
            guard let text = v.string, let seconds = parseDuration(text), seconds <= 7 * 86_400 else {
                try fail(v, "`\(key)` must be a duration such as 90s, 15m, 1h or 1h30m (at most 7 days)")
                continue
            }
            if key == "dwell" { tile.rotation.dwell = seconds } else { tile.rotation.pause = seconds }
        }
        if let v = map["attention"] {
            if let text = v.string, let mode = AttentionMode(rawValue: text.lowercased()) {
                tile.attention = mode
            } else {
                let modes = AttentionMode.allCases.map(\.rawValue).joined(separator: ", ")
                try fail(v, "`attention` must be one of \(modes)")
            }
        }
    }

    /// "90s", "15m", "1h", "1h30m", "2d" → seconds; nil for anything else (a bare number is
    /// refused: minutes or seconds would be a guess).
    public static func parseDuration(_ text: String) -> TimeInterval? {
        var total = 0.0
        var digits = ""
        var units = 0
        for c in text.trimmingCharacters(in: .whitespaces).lowercased() {
            if c.isASCII && c.isNumber {
                digits.append(c)
                guard digits.count <= 7 else { return nil }
                continue
            }
            let unit: Double
            switch c {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return nil
            }
            guard let n = Double(digits) else { return nil }
            total += n * unit
            digits = ""
            units += 1
        }
        return digits.isEmpty && units > 0 ? total : nil
    }
}
