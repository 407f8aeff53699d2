import Foundation
import DashHome

// What swiftdash keeps that is not a cache lives in `$XDG_STATE_HOME/swiftdash` (XDG base
// directory rules: "data that should persist between restarts, but is not important or portable
// enough for $XDG_DATA_HOME"): what Smart Stacks learnt of your use, what interactive widgets
// remember (a running recipe timer, today's glasses of water) and the log. The cache folder keeps
// only what can be fetched again (the last timelines and the reload ledger), so deleting it loses
// nothing you made.

/// Moves what versions up to 0.4 kept in the cache folder to the state folder, once.
public enum StateFolder {
    /// The files that moved: where 0.4 kept each (under the cache folder) and where it lives now.
    static func moves(_ paths: AppPaths) -> [(from: URL, to: URL)] {
        [
            (paths.cache.appendingPathComponent("usage.json"), paths.state.appendingPathComponent("usage.json")),
            (paths.cache.appendingPathComponent("state"), paths.widgetState),
            (paths.cache.appendingPathComponent("swiftdash.log"), paths.logFile),
            (paths.cache.appendingPathComponent("swiftdash.log.1"), paths.logFile.appendingPathExtension("1")),
        ]
    }

    /// Moves each old file that exists to its new place when nothing is there yet (a file already
    /// in the state folder wins and the old one stays where it is). Returns one line per move or
    /// problem, for the log; never throws: a file that cannot move is left in place and read there
    /// no more, which loses what it remembered but nothing else.
    @discardableResult
    public static func migrate(_ paths: AppPaths) -> [String] {
        let fm = FileManager.default
        var said: [String] = []
        for (from, to) in moves(paths) where fm.fileExists(atPath: from.path) && !fm.fileExists(atPath: to.path) {
            do {
                try fm.createDirectory(
                    at: to.deletingLastPathComponent(), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
                if rename(from.path, to.path) != 0 {
                    // Another file system (a cache on tmpfs): copy, then remove the old one.
                    guard errno == EXDEV else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                    try fm.copyItem(at: from, to: to)
                    try fm.removeItem(at: from)
                }
                said.append("moved \(from.path) to \(to.path)")
            } catch {
                said.append("could not move \(from.path) to \(to.path): \(error)")
            }
        }
        return said
    }
}
