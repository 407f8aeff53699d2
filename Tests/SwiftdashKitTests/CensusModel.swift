import Foundation
import OSLog

// A widget's model file as the census has them: Foundation and the unified log, an app group's
// folder for a shared file, user defaults by key-value coding.

enum ChoreArchive {
    static let log = Logger(subsystem: "Census", category: "ChoreArchive")

    static var url: URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.example.chores")?
            .appendingPathComponent("chores.json")
    }

    static func save(_ titles: [String]) throws {
        guard let url else { return }
        try JSONEncoder().encode(titles).write(to: url)
        UserDefaults.standard.setValue(titles.count, forKey: "census.savedCount")
        log.info("saved \(titles.count, privacy: .public) chores to \(url.lastPathComponent)")
    }

    static func load() -> [String] {
        guard let url, let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }
}
