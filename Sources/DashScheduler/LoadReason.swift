import Foundation
import DashWidgets

/// A widget instance on the home screen, stable across restarts ("tile-3").
public typealias InstanceID = String

/// Why a timeline load was started.
public enum LoadReason: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The first load of an instance that has no cached timeline. Not charged.
    case initial
    /// The timeline's reload policy came due. Charged against the budget.
    case policy
    /// A retry after a failed load, on the back-off schedule. Not charged.
    case retry
    /// The user asked (`r`, `R`, `swiftdash reload`). Not charged.
    case manual
    /// `WidgetCenter.reloadTimelines(ofKind:)` / `reloadAllTimelines()`. Not charged.
    case widgetCenter
    /// The user edited the instance's configuration (or family). Not charged.
    case configurationChanged

    /// Whether a load for this reason counts against the daily budget.
    public var isCharged: Bool { self == .policy }

    public var description: String { rawValue }

    /// Which reason a coalesced request keeps.
    var rank: Int {
        switch self {
        case .policy: return 0
        case .retry: return 1
        case .initial: return 2
        case .widgetCenter: return 3
        case .manual: return 4
        case .configurationChanged: return 5
        }
    }
}
