import Foundation
import DashWidgets
#if canImport(Glibc)
    import Glibc
#endif
import DashHome
import DashApp

extension Extensions {
    /// The widgets folder of this process described now: the folder (which a running home
    /// screen scans again when it changes), what it offers, and the built-in widgets with its.
    public static func start(
        builtin: WidgetBundle, environment: [String: String],
        log: @escaping @Sendable (String) -> Void
    ) -> (folder: ExtensionFolder, catalog: ExtensionCatalog, bundle: WidgetBundle) {
        let folder = ExtensionFolder(
            paths: AppPaths(environment: environment), builtin: Set(builtin.kinds), environment: environment, log: log)
        let catalog = folder.scan()
        return (folder, catalog, WidgetBundle(builtin.widgets + catalog.widgets))
    }
}

extension ExtensionProcess {
    nonisolated(unsafe) private static var atExit: [ExtensionProcess] = []
    private static let atExitLock = NSLock()

    /// Stops these processes when the program exits (`exit()`, or returning from main).
    static func registerForExit(_ processes: [ExtensionProcess]) {
        atExitLock.lock()
        let first = atExit.isEmpty
        atExit += processes
        atExitLock.unlock()
        if first {
            atexit {
                ExtensionProcess.atExitLock.lock()
                let all = ExtensionProcess.atExit
                ExtensionProcess.atExitLock.unlock()
                for p in all { p.stop() }
            }
        }
    }
}
