/// A terminal colour. `.default` leaves the terminal's own colour.
public enum Color: Hashable, Sendable {
    case `default`
    /// One of the 16 ANSI colours (0-7 normal, 8-15 bright).
    case ansi(UInt8)
    /// xterm 256-colour palette index.
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    /// Parses `#rrggbb`, `#rgb`, `default`, an ANSI name (`red`, `brightblue`) or a number 0-255.
    public init?(parsing raw: String) {
        let text = String(raw.lowercased().drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        if text == "default" || text == "none" {
            self = .default
            return
        }
        if text.hasPrefix("#") {
            let hex = Array(text.dropFirst())
            func val(_ s: ArraySlice<Character>) -> UInt8? { UInt8(String(s), radix: 16) }
            if hex.count == 6, let r = val(hex[0..<2]), let g = val(hex[2..<4]), let b = val(hex[4..<6]) {
                self = .rgb(r, g, b)
                return
            }
            if hex.count == 3, let r = val(hex[0..<1]), let g = val(hex[1..<2]), let b = val(hex[2..<3]) {
                self = .rgb(r * 17, g * 17, b * 17)
                return
            }
            return nil
        }
        if let n = UInt8(text) {
            self = .indexed(n)
            return
        }
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        if let i = names.firstIndex(of: text) {
            self = .ansi(UInt8(i))
            return
        }
        if text.hasPrefix("bright"), let i = names.firstIndex(of: String(text.dropFirst(6))) {
            self = .ansi(UInt8(i + 8))
            return
        }
        return nil
    }
}

/// How many colours the terminal can show.
public enum ColorDepth: Int, Comparable, Sendable, CaseIterable {
    case none = 0, ansi8 = 8, ansi16 = 16, indexed256 = 256, trueColor = 16_777_216
    public static func < (a: ColorDepth, b: ColorDepth) -> Bool { a.rawValue < b.rawValue }

    /// Picks a depth from the environment the way most terminal programs do:
    /// `NO_COLOR` (any value) wins, then `COLORTERM=truecolor|24bit`, then the colour count.
    public static func detect(environment: [String: String], terminalColors: Int) -> ColorDepth {
        if let v = environment["NO_COLOR"], !v.isEmpty { return .none }
        if terminalColors <= 0 { return .none }
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorterm == "truecolor" || colorterm == "24bit" { return .trueColor }
        if terminalColors >= 256 { return .indexed256 }
        if terminalColors >= 16 { return .ansi16 }
        return .ansi8
    }
}

extension Color {
    /// The same colour expressed within `depth`, choosing the nearest available one.
    public func degraded(to depth: ColorDepth) -> Color {
        switch (self, depth) {
        case (.default, _), (_, .none): return .default
        case (.rgb, .trueColor): return self
        case (.rgb(let r, let g, let b), .indexed256): return .indexed(Color.nearest256(r, g, b))
        case (.rgb(let r, let g, let b), .ansi16): return .ansi(Color.nearestANSI(r, g, b, count: 16))
        case (.rgb(let r, let g, let b), .ansi8): return .ansi(Color.nearestANSI(r, g, b, count: 8))
        case (.indexed(let i), .trueColor), (.indexed(let i), .indexed256):
            return depth == .trueColor ? self : .indexed(i)
        case (.indexed(let i), _):
            let (r, g, b) = Color.rgbOf256(i)
            return .ansi(Color.nearestANSI(r, g, b, count: depth == .ansi8 ? 8 : 16))
        case (.ansi(let a), .ansi8): return .ansi(a % 8)
        case (.ansi, _): return self
        }
    }

    static let ansiRGB: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]

    static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        // Weighted ("redmean"-like) distance, good enough for picking a palette entry.
        let dr = Int(a.0) - Int(b.0), dg = Int(a.1) - Int(b.1), db = Int(a.2) - Int(b.2)
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }

    static func nearestANSI(_ r: UInt8, _ g: UInt8, _ b: UInt8, count: Int) -> UInt8 {
        var best = 0, bestD = Int.max
        for i in 0..<count {
            let d = distance((r, g, b), ansiRGB[i])
            if d < bestD {
                bestD = d
                best = i
            }
        }
        return UInt8(best)
    }

    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    static func rgbOf256(_ i: UInt8) -> (UInt8, UInt8, UInt8) {
        let n = Int(i)
        if n < 16 { return ansiRGB[n] }
        if n >= 232 {
            let v = UInt8(8 + (n - 232) * 10)
            return (v, v, v)
        }
        let c = n - 16
        return (UInt8(cubeLevels[c / 36]), UInt8(cubeLevels[(c / 6) % 6]), UInt8(cubeLevels[c % 6]))
    }

    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        func level(_ v: UInt8) -> Int {
            var best = 0
            for (i, l) in cubeLevels.enumerated() where abs(l - Int(v)) < abs(cubeLevels[best] - Int(v)) { best = i }
            return best
        }
        let ri = level(r), gi = level(g), bi = level(b)
        let cube = UInt8(16 + 36 * ri + 6 * gi + bi)
        let avg = (Int(r) + Int(g) + Int(b)) / 3
        let grayIndex = max(0, min(23, (avg - 8 + 5) / 10))
        let gray = UInt8(232 + grayIndex)
        return distance((r, g, b), rgbOf256(gray)) < distance((r, g, b), rgbOf256(cube)) ? gray : cube
    }
}

public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let italic = TextAttributes(rawValue: 1 << 2)
    public static let underline = TextAttributes(rawValue: 1 << 3)
    public static let reverse = TextAttributes(rawValue: 1 << 4)
}

/// Foreground, background and attributes of a cell.
public struct Style: Hashable, Sendable {
    public var foreground: Color
    public var background: Color
    public var attributes: TextAttributes
    /// An OSC 8 hyperlink target carried by the cell, if any.
    public var hyperlink: String?

    public init(
        foreground: Color = .default, background: Color = .default,
        attributes: TextAttributes = [], hyperlink: String? = nil
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
        self.hyperlink = hyperlink
    }
    public static let plain = Style()

    public func with(foreground: Color? = nil, background: Color? = nil, adding attrs: TextAttributes = []) -> Style {
        var s = self
        if let f = foreground { s.foreground = f }
        if let b = background { s.background = b }
        s.attributes.formUnion(attrs)
        return s
    }
}
