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

// Live Activities (ActivityKit) are in Activities/: they run on swiftdash (issue 39).

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
