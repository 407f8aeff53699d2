/// The semantic colour roles every theme defines (after Textual's design tokens).
public enum ThemeRole: String, CaseIterable, Sendable, Codable {
    case background, surface, text, secondaryText, accent, positive, negative, warning, focus, redacted
}

/// A named set of colours for the semantic roles.
public struct Theme: Equatable, Sendable {
    public var name: String
    public var isDark: Bool
    public var colors: [ThemeRole: Color]

    public init(name: String, isDark: Bool, colors: [ThemeRole: Color]) {
        self.name = name
        self.isDark = isDark
        self.colors = colors
    }

    public subscript(role: ThemeRole) -> Color { colors[role] ?? .default }

    /// The built-in dark theme (the same colours as `themes/dark.yaml`), used when no theme file can be read.
    public static let dark = Theme(
        name: "dark", isDark: true,
        colors: [
            .background: .rgb(0x1a, 0x1b, 0x26), .surface: .rgb(0x24, 0x28, 0x3b),
            .text: .rgb(0xc0, 0xca, 0xf5), .secondaryText: .rgb(0x78, 0x7c, 0x99),
            .accent: .rgb(0x7a, 0xa2, 0xf7), .positive: .rgb(0x9e, 0xce, 0x6a),
            .negative: .rgb(0xf7, 0x76, 0x8e), .warning: .rgb(0xe0, 0xaf, 0x68),
            .focus: .rgb(0xbb, 0x9a, 0xf7), .redacted: .rgb(0x41, 0x48, 0x68),
        ])

    /// The built-in light theme (the same colours as `themes/light.yaml`).
    public static let light = Theme(
        name: "light", isDark: false,
        colors: [
            .background: .rgb(0xf5, 0xf5, 0xf7), .surface: .rgb(0xff, 0xff, 0xff),
            .text: .rgb(0x1d, 0x1d, 0x1f), .secondaryText: .rgb(0x6e, 0x6e, 0x73),
            .accent: .rgb(0x00, 0x66, 0xcc), .positive: .rgb(0x1a, 0x7f, 0x37),
            .negative: .rgb(0xc9, 0x1d, 0x2e), .warning: .rgb(0xa0, 0x5a, 0x00),
            .focus: .rgb(0x88, 0x3a, 0xe1), .redacted: .rgb(0xd2, 0xd2, 0xd7),
        ])

    /// The terminal's own palette: only the default colours and the 16 ANSI colours, so swiftdash
    /// takes whatever colours the user gave their terminal (`theme: terminal`).
    public static let terminal = Theme(
        name: "terminal", isDark: true,
        colors: [
            .background: .default, .surface: .default, .text: .default, .secondaryText: .ansi(8),
            .accent: .ansi(4), .positive: .ansi(2), .negative: .ansi(1), .warning: .ansi(3),
            .focus: .ansi(5), .redacted: .ansi(8),
        ])

    /// Whether a background colour is dark (relative luminance under one half).
    public static func isDark(red: Double, green: Double, blue: Double) -> Bool {
        0.2126 * red + 0.7152 * green + 0.0722 * blue < 0.5
    }

    /// What `COLORFGBG` (`fg;bg`, set by rxvt, Konsole and others) says of the background: nil
    /// when it is not set or not understood. ANSI 0–6 and 8 are dark backgrounds, 7 and 9–15 light.
    public static func backgroundIsDark(colorfgbg: String?) -> Bool? {
        guard let last = colorfgbg?.split(separator: ";").last, let bg = Int(last), (0...15).contains(bg) else {
            return nil
        }
        return bg < 7 || bg == 8
    }

    /// A theme for monochrome terminals (`NO_COLOR`): focus is shown with reverse video.
    public static let monochrome = Theme(name: "monochrome", isDark: true, colors: [:])
}
