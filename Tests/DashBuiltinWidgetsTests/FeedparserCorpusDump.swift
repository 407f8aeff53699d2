import Foundation
import Testing
@testable import DashBuiltinWidgets

/// The headlines the news widget reads from every `.xml` file under a folder (feedparser's own
/// test corpus), written as JSON for Tests/reference/feedparser_corpus.py to compare with
/// feedparser. Runs only when that script sets SWIFTDASH_FEEDPARSER_CORPUS (and _OUT).
@Suite("feedparser corpus dump")
struct FeedparserCorpusDump {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["SWIFTDASH_FEEDPARSER_CORPUS"] != nil))
    func dumpTheHeadlinesOfEveryFile() throws {
        let root = URL(fileURLWithPath: try #require(Self.environment["SWIFTDASH_FEEDPARSER_CORPUS"]))
        let out = URL(fileURLWithPath: try #require(Self.environment["SWIFTDASH_FEEDPARSER_OUT"]))
        let files =
            (FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "xml" }
        var result: [String: [String]] = [:]
        for file in files {
            let name = String(file.path.dropFirst(root.path.count + 1))
            let data = try Data(contentsOf: file)
            let titles =
                (try? NewsFeedParser.parse(
                    data, host: "feeds.example.com", url: "https://feeds.example.com/corpus/\(file.lastPathComponent)",
                    contentType: "application/xml"))?.items.map(\.title)
            result[name] = titles ?? []
        }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        try e.encode(result).write(to: out)
        #expect(result.count == files.count)
    }
}
