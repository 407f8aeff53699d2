import Foundation
import DashHome
import DashHomeFiles
#if canImport(Glibc)
    import Glibc
#endif

/// Tells when anything in one folder changes (a file added, removed, replaced, written or made
/// executable), with inotify: a thread sleeps in `poll()` (no timer, no polling of the folder)
/// and calls `onChange` once a burst of events has been quiet for `settle` seconds (a copy is a
/// create, writes and a close). The widgets folder uses it (decision 50).
///
/// The folder may not exist yet, or be removed and made again: its parent is watched for it
/// (the parent is created if missing, as home.yaml's watcher creates the config folder), and the
/// folder's own watch is added whenever it appears; its appearing or going is a change too.
public final class FolderWatcher: @unchecked Sendable {
    private let wake: InotifyWake

    static let folderMask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF
            | IN_MOVE_SELF)
    static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)

    public init(folder: URL, settle: TimeInterval = 0.1, onChange: @escaping @Sendable () -> Void) throws {
        wake = try InotifyWake()
        let parent = folder.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let parentWatch = inotify_add_watch(wake.fd, parent.path, Self.parentMask)
        guard parentWatch >= 0 else {
            let message = "cannot watch \(parent.path): \(String(cString: strerror(errno)))"
            wake.close()
            throw HomeFileError(message: message)
        }
        let state = Watches(wake: wake, folder: folder.path, parent: parentWatch)
        state.watchFolder()
        let ms = Int32(clamping: settle * 1000, to: 1...Int32.max, nan: 1)
        wake.start(name: "folder watcher") { state.loop(settle: ms, onChange: onChange) }
    }

    /// Stops the thread and closes the descriptors (also on deinit).
    public func stop() { wake.finish() }

    deinit { stop() }

    /// The watches, used by the watcher's thread only (after `init`).
    final class Watches: @unchecked Sendable {
        let wake: InotifyWake
        var fd: Int32 { wake.fd }
        let folder: String
        let name: String
        let parent: Int32
        var folderWatch: Int32 = -1

        init(wake: InotifyWake, folder: String, parent: Int32) {
            self.wake = wake
            self.folder = folder
            self.name = URL(fileURLWithPath: folder).lastPathComponent
            self.parent = parent
        }

        /// Watches the folder if it is there (a second add of the same folder is harmless).
        func watchFolder() {
            let wd = inotify_add_watch(fd, folder, FolderWatcher.folderMask | UInt32(IN_ONLYDIR))
            folderWatch = wd >= 0 ? wd : -1
        }

        func loop(settle: Int32, onChange: @Sendable () -> Void) {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            // Let a burst finish (a copy: create, writes, close; a chmod after) before telling.
            while let relevant = wake.nextBurst(settle: settle, rounds: 40, drain: { drain(&buffer) }) {
                if relevant { onChange() }
            }
        }

        /// Reads the pending events; true when one is about the folder or what is in it. The
        /// folder appearing in its parent adds its watch.
        func drain(_ buffer: inout [UInt8]) -> Bool {
            var relevant = false
            var aboutFolder = false
            for e in wake.readEvents(&buffer) {
                if e.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    relevant = true
                } else if e.watch == parent {
                    if e.name == name { (relevant, aboutFolder) = (true, true) }
                } else if e.watch == folderWatch {
                    if e.mask & UInt32(IN_IGNORED) != 0 { folderWatch = -1 }
                    relevant = true
                }
            }
            // Made (again, or moved in): watch it; gone: its watch ended by itself (IN_IGNORED).
            if aboutFolder || (relevant && folderWatch < 0) { watchFolder() }
            return relevant
        }
    }
}
