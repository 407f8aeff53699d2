import Foundation
import DashWidgets
import DashScheduler
import DashApp
import DashHome

/// Reads and writes `usage.json` in the cache directory, atomically like the timeline cache.
public struct UsageStore: Sendable {
    /// `…/swiftdash` (the cache directory).
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public var fileURL: URL { directory.appendingPathComponent("usage.json", isDirectory: false) }

    /// The stored history; an empty one when there is none, or (with a line to `log`) when the
    /// file is broken or of another format.
    public func load(log: (String) -> Void = { _ in }) -> UsageHistory {
        guard let data = try? Data(contentsOf: fileURL) else { return UsageHistory() }
        do {
            let h = try JSONDecoder.dash.decode(UsageHistory.self, from: data)
            guard h.format == UsageHistory.currentFormat, h.version == UsageHistory.currentVersion else {
                let version = UsageHistory.currentVersion
                log("usage: ignoring \(fileURL.path): not a swiftdash usage file of version \(version)")
                return UsageHistory()
            }
            return h
        } catch {
            log("usage: ignoring \(fileURL.path): not valid usage JSON")
            return UsageHistory()
        }
    }

    /// Writes the history atomically (temp file, fsync, rename).
    public func save(_ history: UsageHistory) throws {
        try TimelineCacheStore.makeDirectory(directory)
        try TimelineCacheStore.writeAtomically(try JSONEncoder.dash.encode(history), to: fileURL)
    }
}
