import Foundation

// The rest of ActivityKit's surface an app may use: push tokens (no push service here: the streams
// end at once, said once in the log), the older spellings, and the configuration's modifiers.

/// ActivityKit's earlier name of the dismissal policy.
public typealias ActivityDismissalPolicy = ActivityUIDismissalPolicy

/// The sizes a Live Activity may also be drawn in (a watch's Smart Stack): one size here.
public enum ActivityFamily: Sendable, Hashable { case small, medium }

extension Activity {
    /// No push service here.
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
    /// Updates made elsewhere are not followed: the streams end at once.
    public var contentUpdates: AsyncStream<ActivityContent<Attributes.ContentState>> { AsyncStream { $0.finish() } }
    public var activityStateUpdates: AsyncStream<ActivityState> { AsyncStream { $0.finish() } }
    public static var activityUpdates: AsyncStream<Activity<Attributes>> { AsyncStream { $0.finish() } }

    /// iOS 16.1's spelling.
    public static func request(
        attributes: Attributes, contentState: Attributes.ContentState, pushType: PushType? = nil
    ) throws -> Activity<Attributes> {
        try request(
            attributes: attributes, content: ActivityContent(state: contentState, staleDate: nil), pushType: pushType)
    }
    public func update(using contentState: Attributes.ContentState) async {
        await update(ActivityContent(state: contentState, staleDate: nil, relevanceScore: content.relevanceScore))
    }
    public func update(using contentState: Attributes.ContentState, alertConfiguration: AlertConfiguration) async {
        await update(
            ActivityContent(state: contentState, staleDate: nil, relevanceScore: content.relevanceScore),
            alertConfiguration: alertConfiguration)
    }
    public func end(dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        await end(nil, dismissalPolicy: dismissalPolicy)
    }
    public func end(using contentState: Attributes.ContentState?, dismissalPolicy: ActivityUIDismissalPolicy = .default)
        async
    {
        await end(contentState.map { ActivityContent(state: $0, staleDate: nil) }, dismissalPolicy: dismissalPolicy)
    }
}

extension ActivityConfiguration {
    public func configurationDisplayName(_ name: LocalizedStringKey) -> Self { self }
    public func description(_ description: LocalizedStringKey) -> Self { self }
    public func supplementalActivityFamilies(_ families: [ActivityFamily]) -> Self { self }
    public func contentMarginsDisabled() -> Self { self }
}

extension DynamicIslandExpandedContentBuilder {
    public static func buildLimitedAvailability(_ part: DynamicIslandExpandedContent) -> DynamicIslandExpandedContent {
        part
    }
}
