import Foundation
import Testing
import DashCore
@testable import DashBuiltinWidgets

/// The hand-written parser and expander against Python's icalendar + recurring-ical-events
/// (Tests/reference/ics_reference.py wrote the expected JSON): every occurrence of every
/// corpus file in a year's window must be the same, start, end and summary.
@Suite("calendar reference corpus")
struct CalendarReferenceTests {
    struct Expected: Decodable {
        struct Occurrence: Decodable, Hashable {
            var start: String
            var end: String
            var allDay: Bool
            var summary: String
        }
        var viewerZone: String
        var window: [String]
        var occurrences: [Occurrence]
    }

    static let corpus = testsDirectory.appendingPathComponent("Fixtures/ics")

    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.filter { $0.hasSuffix(".ics") }.sorted()
    }

    static func text(_ instant: Date, allDay: Bool, viewer: CalendarZone) -> String {
        let t = Int64(instant.timeIntervalSince1970)
        if allDay { return Civil.iso(viewer.wall(fromUTC: t), date: true) }
        return Civil.iso(t) + "Z"
    }

    @Test func corpusHasEveryExporter() {
        #expect(Self.files.count >= 6)
        for name in ["google.ics", "outlook.ics", "apple.ics", "fastmail.ics", "dst.ics", "recurring-exceptions.ics"] {
            #expect(Self.files.contains(name), "\(name)")
        }
    }

    @Test(arguments: files)
    func matchesReference(_ name: String) throws {
        let data = try Data(contentsOf: Self.corpus.appendingPathComponent(name))
        let json = try Data(
            contentsOf: Self.corpus.appendingPathComponent(
                name.replacingOccurrences(of: ".ics", with: ".expected.json")))
        let expected = try JSONDecoder().decode(Expected.self, from: json)
        let viewer = try #require(CalendarZone.iana(expected.viewerZone))
        func instant(_ s: String) throws -> Date {
            let w = try #require(
                ICSReader.dateTime(
                    Substring(
                        s.replacingOccurrences(of: "-", with: "")
                            .replacingOccurrences(of: ":", with: ""))))
            return Date(timeIntervalSince1970: TimeInterval(viewer.utc(fromWall: w.wall)))
        }
        let doc = CalendarParser.parse(data, source: name)
        #expect(doc.problems.isEmpty, "\(doc.problems)")
        let got = doc.occurrences(
            from: try instant(expected.window[0]), to: try instant(expected.window[1]),
            viewer: viewer, limit: 100_000
        ).occurrences
        let actual = got.map {
            Expected.Occurrence(
                start: Self.text($0.start, allDay: $0.allDay, viewer: viewer),
                end: Self.text($0.end, allDay: $0.allDay, viewer: viewer),
                allDay: $0.allDay, summary: $0.summary)
        }.sorted { ($0.start, $0.end, $0.summary) < ($1.start, $1.end, $1.summary) }
        let missing = expected.occurrences.filter { !actual.contains($0) }
        let extra = actual.filter { !expected.occurrences.contains($0) }
        #expect(
            missing.isEmpty && extra.isEmpty,
            "\(name): missing \(missing.count) \(missing.prefix(8)); extra \(extra.count) \(extra.prefix(8))")
        #expect(actual.count == expected.occurrences.count)
    }
}
