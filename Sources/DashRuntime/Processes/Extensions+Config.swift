import Foundation
import DashWidgets
#if canImport(Glibc)
    import Glibc
#endif
import DashHome
import DashApp

extension Extensions {
    /// The built-in widgets plus every extension's (the widgets folder and home.yaml's list),
    /// described in parallel at start. Extensions still running when the program exits are killed
    /// with their process groups.
    public static func bundle(
        builtin: WidgetBundle, environment: [String: String],
        log: @escaping @Sendable (String) -> Void
    ) -> WidgetBundle {
        let paths = AppPaths(environment: environment)
        let listed = HomeConfig.extensionPaths(in: paths.homeFile)
        let executables = candidates(paths: paths, listed: listed, environment: environment)
        guard !executables.isEmpty else { return builtin }
        let found = discover(executables, builtin: Set(builtin.kinds), environment: environment, log: log)
        ExtensionProcess.registerForExit(found.processes)
        return WidgetBundle(builtin.widgets + found.widgets)
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
