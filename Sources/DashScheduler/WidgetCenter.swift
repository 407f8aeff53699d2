/// A WidgetCenter request as data, so it can travel as a message (`swiftdash reload
/// [KIND]` over the socket, an action of an interactive widget) before the runtime
/// applies it to the scheduler with `Scheduler.apply(_:)`.
public enum WidgetCenterRequest: Codable, Sendable, Hashable {
    /// `WidgetCenter.reloadTimelines(ofKind:)`.
    case reloadTimelines(kind: String)
    /// `WidgetCenter.reloadAllTimelines()`.
    case reloadAllTimelines
    /// One instance, as the user's `r` or `swiftdash reload ID` (a `.manual` reload).
    case reloadInstance(InstanceID)
}

extension Scheduler {
    /// Applies a WidgetCenter request; returns how many instances will reload (none of
    /// them charged). The loads start at the next `process(now:)`.
    @discardableResult
    public mutating func apply(_ request: WidgetCenterRequest) -> Int {
        switch request {
        case .reloadTimelines(let kind): return reloadTimelines(ofKind: kind)
        case .reloadAllTimelines: return reloadAllTimelines()
        case .reloadInstance(let id): return reload(id, reason: .manual) ? 1 : 0
        }
    }
}
