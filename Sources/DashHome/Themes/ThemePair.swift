import DashCore
import DashWidgets

/// A theme and its opposite (for `t`).
public struct ThemePair: Sendable {
    public var main: Theme
    public var other: Theme
    public init(_ main: Theme, _ other: Theme) {
        self.main = main
        self.other = other
    }
}

/// Why a theme cannot be used, against its file and line where it has one.
public struct ThemeProblem: Error, Sendable, Equatable {
    public var message: String
    public init(message: String) { self.message = TextSanitizer.singleLine(message) }
}
