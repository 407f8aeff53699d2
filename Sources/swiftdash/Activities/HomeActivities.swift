import Foundation
import Logging
import DashApp
import DashRuntime
import DashActivities
import DashActivityFiles

/// The home screen's view of the activities: read at start, then read again each time the state
/// folder's activities.json is replaced (inotify on the folder; nothing wakes while nobody writes),
/// and handed to the loop as `Msg.activitiesChanged`. The loop wakes by itself only for what the
/// strip shows changing with time (`ActivitiesState.nextChange`).
enum HomeActivities {
    /// Starts reading; the watcher (nil with `watch: false`) lives until it is stopped.
    static func start(_ store: ActivityStore, inbox: Inbox, watch: Bool, logger: Logger) -> FileWatcher? {
        @Sendable func read() {
            do { inbox.post(.activitiesChanged(try store.load(at: Date()))) } catch {
                logger.warning("activities: \(error)")
            }
        }
        read()
        guard watch else { return nil }
        try? FileManager.default.createDirectory(
            at: store.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let watcher = FileWatcher()
        watcher.watch([store.file.path]) { _ in read() }
        return watcher
    }
}
