import Foundation
import DashWidgets

/// An api widget's latest answer, as its tile shows it: each field's label and number. A chart
/// bound to that widget (`api: w3`, `field: p95`) charts this instead of asking the server
/// itself, so the two tiles show the same number and the server is asked once per api reload
/// (issue 38 point 7).
struct APIAnswer: Codable, Sendable, Hashable {
    /// When the api widget had this answer (Unix seconds).
    var time: Int
    /// In the widget's order of fields; no number where the field is not one number.
    var values: [Value]

    struct Value: Codable, Sendable, Hashable {
        var label: String
        var number: Double?
    }

    init(_ entry: APIEntry) {
        time = Int(clamping: entry.date.timeIntervalSince1970.rounded())
        values = entry.values.map { Value(label: $0.label, number: $0.number.flatMap { $0.isFinite ? $0 : nil }) }
    }
}

/// Where an api widget's answer is kept for the charts bound to it: the state folder the widgets
/// keep their history in (`api-ID.json`: the api widget and the chart may be loaded by different
/// processes), and this process's memory where there is no state folder.
enum APIAnswers {
    private final class Memory: @unchecked Sendable {
        let lock = NSLock()
        var items: [String: APIAnswer] = [:]
    }
    private static let memory = Memory()

    /// After a fresh answer of the api widget `context.instanceID` (not a preview's).
    static func record(_ entry: APIEntry, _ context: TimelineContext) {
        guard !context.isPreview, entry.failure == nil, entry.notice == nil, let id = context.instanceID else { return }
        let answer = APIAnswer(entry)
        memory.lock.withLock { memory.items[key(id, context)] = answer }
        try? WidgetStateStore.save(answer, kind: APIWidget.kind, context)
    }

    /// The latest answer of the api widget `id`, nil before its first.
    static func latest(of id: String, _ context: TimelineContext) -> APIAnswer? {
        var theirs = context
        theirs.instanceID = id
        if let saved = WidgetStateStore.load(APIAnswer.self, kind: APIWidget.kind, theirs) { return saved }
        return memory.lock.withLock { memory.items[key(id, context)] }
    }

    private static func key(_ id: String, _ context: TimelineContext) -> String {
        (context.stateDirectory ?? "") + "\n" + id
    }
}
