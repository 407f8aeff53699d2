import Foundation
internal import DashWidgets

/// A text's content as written: SwiftUI's `Text("Hello \(name)")` takes one of these, so
/// `\(value, specifier: "%.2f")`, `\(date, style: .time)` and `\(value, format: .number)` work.
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Sendable, Hashable {
    var text: String
    public init(_ value: String) { text = value }
    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { text += literal }
        public mutating func appendInterpolation<T>(_ value: T) { text += String(describing: value) }
        public mutating func appendInterpolation(_ value: String) { text += value }
        public mutating func appendInterpolation<T: CVarArg>(_ value: T, specifier: String) {
            text += String(format: specifier, value)
        }
        public mutating func appendInterpolation<F: FormatStyle>(_ value: F.FormatInput, format: F)
        where F.FormatOutput == String {
            text += format.format(value)
        }
        public mutating func appendInterpolation(_ date: Date, style: Text.DateStyle) {
            text += style.staticText(date)
        }
        public mutating func appendInterpolation(_ text: Text) { self.text += text.plain }
        /// `\(date, formatter: f)`, `\(number as NSNumber, formatter: f)`: the formatter's text.
        public mutating func appendInterpolation<Subject>(_ subject: Subject, formatter: Formatter?) {
            text += formatter?.string(for: subject) ?? String(describing: subject)
        }
    }
}

public typealias LocalizedStringResource = LocalizedStringKey

/// A text. Styles given to a text stay with it (`Text("a").bold()` is a `Text`); a text made of
/// several (`Text("a") + Text("b")`) takes the style of its first part.
public struct Text: View, PrimitiveView, Equatable {
    enum Content: Equatable {
        case verbatim(String)
        case date(Date, DateStyle)
        case timer(ClosedRange<Date>, countsDown: Bool)
    }
    var content: [Content]
    var style: [String: JSONValue] = [:]
    var uppercase = false

    public init(verbatim content: String) { self.content = [.verbatim(content)] }
    public init(_ key: LocalizedStringKey) { content = [.verbatim(key.text)] }
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) { self.content = [.verbatim(String(content))] }
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: String? = nil) {
        content = [.verbatim(key.text)]
    }
    /// A live date: swiftdash updates it on screen without asking the provider.
    public init(_ date: Date, style: DateStyle) { content = [.date(date, style)] }
    public init(
        timerInterval: ClosedRange<Date>, pauseTime: Date? = nil, countsDown: Bool = true, showsHours: Bool = true
    ) {
        content = [.timer(timerInterval, countsDown: countsDown)]
    }
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatOutput == String {
        content = [.verbatim(format.format(input))]
    }
    public init<Subject>(_ subject: Subject, formatter: Formatter) {
        content = [.verbatim(formatter.string(for: subject) ?? String(describing: subject))]
    }
    public init(_ range: ClosedRange<Date>) {
        content = [
            .verbatim(DateStyle.time.staticText(range.lowerBound) + " – " + DateStyle.time.staticText(range.upperBound))
        ]
    }

    public struct DateStyle: Sendable, Hashable {
        let name: String
        public static let time = DateStyle(name: "time")
        public static let date = DateStyle(name: "date")
        public static let relative = DateStyle(name: "relative")
        public static let offset = DateStyle(name: "offset")
        public static let timer = DateStyle(name: "timer")

        func staticText(_ date: Date) -> String {
            switch name {
            case "date": return date.formatted(date: .abbreviated, time: .omitted)
            case "time": return date.formatted(date: .omitted, time: .shortened)
            default: return date.formatted()
            }
        }
    }

    var plain: String {
        content.map { c -> String in
            switch c {
            case .verbatim(let s): return uppercase ? s.uppercased() : s
            case .date(let d, let style): return style.staticText(d)
            case .timer(let r, _): return DateStyle.time.staticText(r.upperBound)
            }
        }.joined()
    }

    func nodes(_ env: EnvironmentValues) -> [JSONValue] {
        var o = style
        if content.count == 1, case .date(let d, let s) = content[0] {
            o["date"] = .number(d.timeIntervalSince1970)
            o["style"] = .string(s.name)
        } else if content.count == 1, case .timer(let r, let down) = content[0] {
            o["date"] = .number((down ? r.upperBound : r.lowerBound).timeIntervalSince1970)
            o["style"] = .string("timer")
        } else {
            o["text"] = .string(plain)
        }
        if env.redactionReasons.contains(.placeholder) { o["redacted"] = .bool(true) }
        return [.object(o)]
    }

    public static func + (a: Text, b: Text) -> Text {
        var t = a
        t.content += b.content
        return t
    }

    func styled(_ key: String, _ value: JSONValue) -> Text {
        var t = self
        t.style[key] = value
        return t
    }

    public func font(_ font: Font?) -> Text {
        var t = self
        if let name = font?.name { t.style["font"] = .string(name) }
        if font?.boldWeight == true { t.style["bold"] = .bool(true) }
        return t
    }
    public func fontWeight(_ weight: Font.Weight?) -> Text {
        (weight?.isBold ?? false) ? styled("bold", .bool(true)) : self
    }
    public func bold() -> Text { styled("bold", .bool(true)) }
    public func bold(_ isActive: Bool) -> Text { styled("bold", .bool(isActive)) }
    public func foregroundColor(_ color: Color?) -> Text {
        color?.semantic.map { styled("color", .string($0)) } ?? self
    }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text {
        style.semantic.map { styled("color", .string($0)) } ?? self
    }
    public func monospacedDigit() -> Text { style["font"] == nil ? styled("font", .string("monospacedDigit")) : self }
    public func italic() -> Text { self }
    public func italic(_ isActive: Bool) -> Text { self }
    public func underline(_ isActive: Bool = true, color: Color? = nil) -> Text { self }
    /// No strike-through in the view protocol: struck text (a done to-do) is drawn as secondary text.
    public func strikethrough(_ isActive: Bool = true, pattern: LineStyle.Pattern = .solid, color: Color? = nil) -> Text
    {
        isActive && style["color"] == nil ? styled("color", .string("secondary")) : self
    }
    public func underline(_ isActive: Bool = true, pattern: LineStyle.Pattern, color: Color? = nil) -> Text { self }
    /// `.textScale(.secondary)`: smaller text, drawn as a caption.
    public func textScale(_ scale: Scale, isEnabled: Bool = true) -> Text {
        isEnabled && scale == .secondary ? styled("font", .string("caption")) : self
    }
    public func fontDesign(_ design: Font.Design?) -> Text { self }
    public func fontWidth(_ width: Font.Width?) -> Text { self }
    public func monospaced(_ isActive: Bool = true) -> Text { self }
    public enum Scale: Sendable, Hashable { case `default`, secondary }
    public struct LineStyle: Sendable, Hashable {
        public enum Pattern: Sendable, Hashable { case solid, dot, dash, dashDot, dashDotDot }
        public init(pattern: Pattern = .solid, color: Color? = nil) {}
        public static let single = LineStyle()
    }
    public func kerning(_ kerning: CGFloat) -> Text { self }
    public func tracking(_ tracking: CGFloat) -> Text { self }
    public func baselineOffset(_ offset: CGFloat) -> Text { self }
    public func textCase(_ textCase: Text.Case?) -> Text {
        var t = self
        t.uppercase = textCase == .uppercase
        return t
    }
    public enum Case: Sendable, Hashable { case uppercase, lowercase }
}

// MARK: - Fonts

/// A font, drawn as the nearest of swiftdash's: `largeTitle`, `title`, `headline`, `body`, `caption`
/// (terminals have one size; the renderer shows them by weight, colour and case).
public struct Font: Sendable, Hashable {
    let name: String?
    var boldWeight = false

    public static let largeTitle = Font(name: "largeTitle")
    public static let title = Font(name: "title")
    public static let title2 = Font(name: "title")
    public static let title3 = Font(name: "title")
    public static let headline = Font(name: "headline")
    public static let subheadline = Font(name: "body")
    public static let body = Font(name: "body")
    public static let callout = Font(name: "body")
    public static let footnote = Font(name: "caption")
    public static let caption = Font(name: "caption")
    public static let caption2 = Font(name: "caption")

    public enum TextStyle: Sendable, Hashable, CaseIterable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
        var font: Font {
            switch self {
            case .largeTitle: return .largeTitle
            case .title, .title2, .title3: return .title
            case .headline: return .headline
            case .subheadline, .body, .callout: return .body
            case .footnote, .caption, .caption2: return .caption
            }
        }
    }

    public struct Weight: Sendable, Hashable {
        let value: Int
        public static let ultraLight = Weight(value: 1)
        public static let thin = Weight(value: 2)
        public static let light = Weight(value: 3)
        public static let regular = Weight(value: 4)
        public static let medium = Weight(value: 5)
        public static let semibold = Weight(value: 6)
        public static let bold = Weight(value: 7)
        public static let heavy = Weight(value: 8)
        public static let black = Weight(value: 9)
        var isBold: Bool { value >= 6 }
    }

    public enum Design: Sendable, Hashable { case `default`, serif, rounded, monospaced }
    public struct Width: Sendable, Hashable {
        let value: Double
        public static let compressed = Width(value: -1), condensed = Width(value: -0.5)
        public static let standard = Width(value: 0), expanded = Width(value: 1)
    }
    public func width(_ width: Width) -> Font { self }

    static func sized(_ size: CGFloat) -> Font {
        size >= 28 ? .largeTitle : size >= 20 ? .title : size >= 17 ? .headline : size <= 12 ? .caption : .body
    }

    public static func system(size: CGFloat, weight: Weight? = nil, design: Design? = nil) -> Font {
        var f = sized(size)
        f.boldWeight = weight?.isBold ?? false
        return f
    }
    public static func system(_ style: TextStyle, design: Design? = nil, weight: Weight? = nil) -> Font {
        var f = style.font
        f.boldWeight = weight?.isBold ?? false
        return f
    }
    public static func custom(_ name: String, size: CGFloat) -> Font { sized(size) }
    public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: TextStyle) -> Font { textStyle.font }
    public static func custom(_ name: String, fixedSize: CGFloat) -> Font { sized(fixedSize) }

    public func bold() -> Font { weight(.bold) }
    public func weight(_ weight: Weight) -> Font {
        var f = self
        f.boldWeight = weight.isBold
        return f
    }
    public func italic() -> Font { self }
    public func monospaced() -> Font { self }
    public func monospacedDigit() -> Font { Font(name: "monospacedDigit", boldWeight: boldWeight) }
    public func smallCaps() -> Font { self }
    public func leading(_ leading: Leading) -> Font { self }
    public enum Leading: Sendable, Hashable { case standard, tight, loose }
}
