import Foundation
internal import DashWidgets

// WidgetKit APIs that need a service of Apple's: Live Activities (ActivityKit: the lock screen and
// the Dynamic Island, push tokens), Siri donations, Control Center controls. They compile, so a
// widget extension that has them builds unchanged, and do nothing here: the first use says so,
// once, on standard error (swiftdash's log for the extension).

/// Says once per subject that an Apple service does nothing on swiftdash.
public enum ServiceNotice {
    nonisolated(unsafe) private static var said = Set<String>()
    private static let lock = NSLock()

    /// True the first time `subject` is told.
    @discardableResult
    public static func once(_ subject: String, _ what: String) -> Bool {
        let first = lock.withLock { said.insert(subject).inserted }
        if first {
            FileHandle.standardError.write(Data("swiftdash: \(subject): \(what) (nothing is done here)\n".utf8))
        }
        return first
    }
}

// MARK: - Live Activities

/// A Live Activity's fixed data; its `ContentState` is what updates.
public protocol ActivityAttributes: Codable {
    associatedtype ContentState: Codable & Hashable
}

/// What a Live Activity's views are given.
public struct ActivityViewContext<Attributes: ActivityAttributes> {
    public let attributes: Attributes
    public let state: Attributes.ContentState
    public let isStale: Bool
    public let activityID: String
}

/// A Live Activity's views (lock screen and Dynamic Island): swiftdash has neither, so the
/// configuration adds no widget to the bundle (said once in the log).
public struct ActivityConfiguration<Attributes: ActivityAttributes>: WidgetConfiguration {
    public init<Content: View>(
        for attributesType: Attributes.Type,
        @ViewBuilder content: @escaping (ActivityViewContext<Attributes>) -> Content,
        dynamicIsland: @escaping (ActivityViewContext<Attributes>) -> DynamicIsland
    ) {}
    public var _widgets: [_WidgetDescriptor] {
        ServiceNotice.once(
            "ActivityConfiguration(\(Attributes.self))", "Live Activities are shown by iOS's lock screen")
        return []
    }
    public func configurationDisplayName(_ name: LocalizedStringKey) -> Self { self }
    public func description(_ description: LocalizedStringKey) -> Self { self }
    public func supplementalActivityFamilies(_ families: [ActivityFamily]) -> Self { self }
    public func contentMarginsDisabled() -> Self { self }
}

public enum ActivityFamily: Sendable, Hashable { case small, medium }

/// The Dynamic Island's regions: built, never drawn.
public struct DynamicIsland {
    public init<Leading: View, Trailing: View, Minimal: View>(
        @DynamicIslandExpandedContentBuilder expanded: () -> _DynamicIslandRegions,
        @ViewBuilder compactLeading: () -> Leading, @ViewBuilder compactTrailing: () -> Trailing,
        @ViewBuilder minimal: () -> Minimal
    ) {}
    public func keylineTint(_ color: Color?) -> DynamicIsland { self }
    public func widgetURL(_ url: URL?) -> DynamicIsland { self }
    public func contentMargins(_ edges: Edge.Set = .all, _ length: CGFloat?, for mode: DynamicIslandMode)
        -> DynamicIsland
    {
        self
    }
}

public enum DynamicIslandMode: Sendable, Hashable { case compact, minimal, expanded }

public struct DynamicIslandExpandedRegionPosition: Sendable, Hashable {
    let name: String
    public static let leading = Self(name: "leading"), trailing = Self(name: "trailing")
    public static let center = Self(name: "center"), bottom = Self(name: "bottom")
}

public struct DynamicIslandExpandedRegion<Content: View> {
    public init(
        _ position: DynamicIslandExpandedRegionPosition, priority: Double = 0, @ViewBuilder content: () -> Content
    ) {}
}

public struct _DynamicIslandRegions {}

@resultBuilder
public enum DynamicIslandExpandedContentBuilder {
    public static func buildExpression<C: View>(_ region: DynamicIslandExpandedRegion<C>) -> _DynamicIslandRegions {
        _DynamicIslandRegions()
    }
    public static func buildBlock(_ parts: _DynamicIslandRegions...) -> _DynamicIslandRegions {
        _DynamicIslandRegions()
    }
    public static func buildOptional(_ part: _DynamicIslandRegions?) -> _DynamicIslandRegions {
        _DynamicIslandRegions()
    }
    public static func buildEither(first: _DynamicIslandRegions) -> _DynamicIslandRegions { first }
    public static func buildEither(second: _DynamicIslandRegions) -> _DynamicIslandRegions { second }
    public static func buildLimitedAvailability(_ part: _DynamicIslandRegions) -> _DynamicIslandRegions { part }
}

extension View {
    public func activityBackgroundTint(_ color: Color?) -> some View { self }
    public func activitySystemActionForegroundColor(_ color: Color?) -> some View { self }
}

/// A Live Activity's content at one moment.
public struct ActivityContent<State: Codable & Hashable> {
    public let state: State
    public let staleDate: Date?
    public let relevanceScore: Double
    public init(state: State, staleDate: Date?, relevanceScore: Double = 0) {
        (self.state, self.staleDate, self.relevanceScore) = (state, staleDate, relevanceScore)
    }
}

public enum PushType: Sendable, Hashable {
    case token
    case channel(String)
}

public enum ActivityDismissalPolicy: Sendable, Hashable {
    case `default`, immediate
    case after(Date)
}

public enum ActivityState: Sendable, Hashable { case active, ended, dismissed, stale, pending }

public struct ActivityAuthorizationError: Error, CustomStringConvertible {
    public var description: String { "Live Activities are shown by iOS's lock screen: there is none on swiftdash" }
}

/// A running Live Activity: none can start here. `request` throws (said once in the log); push
/// tokens never come.
public final class Activity<Attributes: ActivityAttributes>: @unchecked Sendable {
    public let id = UUID().uuidString
    public let attributes: Attributes
    public var content: ActivityContent<Attributes.ContentState>
    public var activityState: ActivityState { .ended }
    public var pushToken: Data? {
        ServiceNotice.once("Activity.pushToken", "Live Activity push tokens come from Apple's push service")
        return nil
    }
    public var pushTokenUpdates: AsyncStream<Data> {
        ServiceNotice.once("Activity.pushTokenUpdates", "Live Activity push tokens come from Apple's push service")
        return AsyncStream { $0.finish() }
    }
    public static var pushToStartTokenUpdates: AsyncStream<Data> {
        ServiceNotice.once("Activity.pushToStartTokenUpdates", "push-to-start tokens come from Apple's push service")
        return AsyncStream { $0.finish() }
    }
    public var contentUpdates: AsyncStream<ActivityContent<Attributes.ContentState>> { AsyncStream { $0.finish() } }
    public var activityStateUpdates: AsyncStream<ActivityState> { AsyncStream { $0.finish() } }
    public static var activities: [Activity<Attributes>] { [] }
    public static var activityUpdates: AsyncStream<Activity<Attributes>> { AsyncStream { $0.finish() } }

    init(attributes: Attributes, content: ActivityContent<Attributes.ContentState>) {
        (self.attributes, self.content) = (attributes, content)
    }

    public static func request(
        attributes: Attributes, content: ActivityContent<Attributes.ContentState>, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        ServiceNotice.once("Activity.request", "Live Activities are shown by iOS's lock screen")
        throw ActivityAuthorizationError()
    }
    public static func request(
        attributes: Attributes, contentState: Attributes.ContentState, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        try request(
            attributes: attributes, content: ActivityContent(state: contentState, staleDate: nil), pushType: pushType)
    }
    public func update(_ content: ActivityContent<Attributes.ContentState>) async {}
    public func update(using contentState: Attributes.ContentState) async {}
    public func end(
        _ content: ActivityContent<Attributes.ContentState>?, dismissalPolicy: ActivityDismissalPolicy = .default
    )
        async
    {}
    public func end(dismissalPolicy: ActivityDismissalPolicy = .default) async {}
}

public struct ActivityAuthorizationInfo: Sendable {
    public init() {}
    public var areActivitiesEnabled: Bool { false }
    public var frequentPushesEnabled: Bool { false }
}

// MARK: - Siri donations

/// `IntentDonationManager.shared.donate(intent:)`: donations teach Siri; there is no Siri here.
public final class IntentDonationManager: Sendable {
    public static let shared = IntentDonationManager()
    @discardableResult
    public func donate<I: AppIntent>(intent: I) -> UUID {
        ServiceNotice.once("IntentDonationManager.donate", "donations teach Siri, which is not here")
        return UUID()
    }
}

/// SiriKit's donation of an interaction (`INInteraction(intent:response:).donate()`).
public final class INInteraction: @unchecked Sendable {
    public init(intent: Any, response: Any?) {}
    public func donate(completion: ((Error?) -> Void)? = nil) {
        ServiceNotice.once("INInteraction.donate", "donations teach Siri, which is not here")
        completion?(nil)
    }
    public static func deleteAll(completion: ((Error?) -> Void)? = nil) { completion?(nil) }
}
