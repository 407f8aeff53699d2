/// The sizes a widget can be shown at. Each larger size shows more information,
/// not the same information bigger.
public enum WidgetFamily: String, CaseIterable, Codable, Sendable, Comparable {
    case small, medium, large, extraLarge

    /// Size on the home screen grid, in units (columns x rows).
    public var gridSize: (columns: Int, rows: Int) {
        switch self {
        case .small: return (2, 2)
        case .medium: return (4, 2)
        case .large: return (4, 4)
        case .extraLarge: return (8, 4)
        }
    }

    public var displayName: String {
        switch self {
        case .small: return "Small"
        case .medium: return "Medium"
        case .large: return "Large"
        case .extraLarge: return "Extra Large"
        }
    }

    public static func < (a: WidgetFamily, b: WidgetFamily) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
