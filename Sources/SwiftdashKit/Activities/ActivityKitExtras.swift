import Foundation

// The rest of ActivityKit's surface an app may use: push tokens (a push here is `swiftdash activity
// update TOKEN`), the older spellings, and the configuration's modifiers.

/// ActivityKit's earlier name of the dismissal policy.
public typealias ActivityDismissalPolicy = ActivityUIDismissalPolicy

/// The sizes a Live Activity may also be drawn in (a watch's Smart Stack): one size here.
public enum ActivityFamily: Sendable, Hashable { case small, medium }

extension Activity {
    /// With `pushType: .token`, the activity's push token: its id's four bytes, so the token in hex
    /// (as a server prints it) is the id, and a push is `swiftdash activity update TOKEN --state …`
    /// (or `end`) from wherever the token was sent. Without, nil, as on iOS.
    public var pushToken: Data? {
        guard pushType == .token else { return nil }
        return Self.tokenBytes(id)
    }
    /// The push token, once (it never changes here), then the stream ends.
    public var pushTokenUpdates: AsyncStream<Data> {
        let token = pushToken
        return AsyncStream {
            if let token { $0.yield(token) }
            $0.finish()
        }
    }
    /// Starting by a push is `swiftdash activity start KIND` here: no token to wait for.
    public static var pushToStartTokenUpdates: AsyncStream<Data> {
        ServiceNotice.once(
            "Activity.pushToStartTokenUpdates", "push-to-start: start activities with `swiftdash activity start KIND`")
        return AsyncStream { $0.finish() }
    }

    /// The id's hexadecimal digits as bytes ("0a1b2c3d" → 0a 1b 2c 3d).
    static func tokenBytes(_ id: String) -> Data {
        let digits = Array(id.utf8)
        var bytes = Data()
        var i = 0
        while i + 1 < digits.count, let hi = hexValue(digits[i]), let lo = hexValue(digits[i + 1]) {
            bytes.append(hi << 4 | lo)
            i += 2
        }
        return bytes
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
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
