import Foundation
import Logging
import DashApp
import DashRuntime
import DashActivities
import DashActivityFiles

/// The home screen's view of the activities: read at start, then read again each time the state
/// folder's activities.json is replaced (inotify on the folder; nothing wakes while nobody writes),
/// and handed to the loop as `Msg.activitiesChanged`. The loop wakes by itself only for what the
/// strip shows changing with time (`ActivitiesState.nextChange`). The reporters of active ones are
/// followed (`OwnerWatch`), so an activity whose `swiftdash run` was killed ends at once.
enum HomeActivities {
    /// Starts reading; the watchers (nil with `watch: false`) live until they are stopped.
    static func start(_ store: ActivityStore, inbox: Inbox, watch: Bool, logger: Logger) -> (FileWatcher, OwnerWatch)? {
        let owners = watch ? OwnerWatch(store: store) : nil
        @Sendable func read() {
            do {
                let book = try store.load(at: Date())
                owners?.follow(book)
                inbox.post(.activitiesChanged(book))
            } catch {
                logger.warning("activities: \(error)")
            }
        }
        guard let owners else {
            read()
            return nil
        }
        try? FileManager.default.createDirectory(
            at: store.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let watcher = FileWatcher()
        watcher.watch([store.file.path]) { _ in read() }
        read()
        return (watcher, owners)
    }
}
