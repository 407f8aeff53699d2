import Foundation
internal import DashWidgets

// A bundle's Live Activities as the extension serves them (issue 39.4, decision 68): `describe`
// lists the kinds its `ActivityConfiguration`s declare, and the `activity` request draws one
// activity's presentations from the attributes and the state the activities file holds, decoded
// by the same Codable path `Activity.request` wrote them with.

/// One `ActivityConfiguration` as the extension serves it: its kind, and its presentations of an
/// `activity` request's params as the protocol's answer.
public struct _ActivityDescriptor {
    var kind: String
    var present: ([String: JSONValue]) throws -> JSONValue
}

/// Why an activity's record cannot be drawn by the bundle's views.
struct ActivityRecordError: Error, CustomStringConvertible {
    var description: String
}

extension ActivityConfiguration {
    /// The `activity` request's answer: every presentation as text, for
    /// `{"kind", "id", "attributes", "state", "isStale"}`.
    func present(_ params: [String: JSONValue]) throws -> JSONValue {
        let attributes: Attributes
        let state: Attributes.ContentState
        do { attributes = try ActivityCoding.stored(Attributes.self, params["attributes"] ?? .null) } catch {
            throw ActivityRecordError(description: "the attributes are not a \(Attributes.self): \(Self.reason(error))")
        }
        do { state = try ActivityCoding.stored(Attributes.ContentState.self, params["state"] ?? .null) } catch {
            throw ActivityRecordError(
                description: "the state is not a \(Attributes.self).ContentState: \(Self.reason(error))")
        }
        let context = ActivityViewContext(
            attributes: attributes, state: state, activityID: params["id"]?.string ?? "",
            isStale: params["isStale"]?.bool ?? false)
        let t = text(context)
        var answer: [String: JSONValue] = [
            "lockScreen": .string(t.lockScreen), "compactLeading": .string(t.compactLeading),
            "compactTrailing": .string(t.compactTrailing), "minimal": .string(t.minimal),
            "expanded": .object(t.expanded.mapValues { .string($0) }),
        ]
        if let url = t.url { answer["url"] = .string(url) }
        if !t.timers.isEmpty {
            answer["timers"] = .object(
                t.timers.mapValues {
                    .object(["date": .number($0.date.timeIntervalSince1970), "countsDown": .bool($0.countsDown)])
                })
        }
        return .object(answer)
    }

    /// A decoding error in a line: the key it failed at and what was wrong.
    static func reason(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return "\(error)" }
        func path(_ c: DecodingError.Context) -> String {
            let p = c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return p.isEmpty ? "" : "`\(p)`: "
        }
        switch e {
        case .keyNotFound(let key, let c): return "\(path(c))no `\(key.stringValue)`"
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            return path(c) + c.debugDescription
        @unknown default: return "\(e)"
        }
    }
}

/// A Live Activity's views as text: `plainText`, with a date's text and a timer's value as of
/// `now` (a widget's tile draws those live from their dates; a region of the strip is text).
enum ActivityText {
    static func plain(_ nodes: [JSONValue], now: Date) -> String {
        var parts: [String] = []
        func walk(_ n: JSONValue) {
            switch n {
            case .string(let s): parts.append(s)
            case .array(let a): a.forEach(walk)
            case .object(let o):
                if let t = o["text"]?.string {
                    parts.append(t)
                } else if let d = o["date"]?.number.map(Date.init(timeIntervalSince1970:)) {
                    parts.append(dateText(d, style: o["style"]?.string ?? "", now: now))
                }
                for k in ["vstack", "hstack", "view"] { if let v = o[k] { walk(v) } }
                if let t = o["button"]?.string { parts.append(t) }
                if let t = o["toggle"]?.string { parts.append(t) }
            default: break
            }
        }
        nodes.forEach(walk)
        return parts.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The Lock Screen view as lines: a `VStack`'s children (and the views the content closure
    /// lists) one under the other, an `HStack`'s side by side on one line.
    static func lines(_ nodes: [JSONValue], now: Date) -> String {
        func vertical(_ n: JSONValue) -> [String] {
            switch n {
            case .array(let a): return a.flatMap(vertical)
            case .object(let o):
                if let v = o["vstack"] { return vertical(v) }
                if o["hstack"] == nil, o["text"] == nil, o["date"] == nil, let v = o["view"] { return vertical(v) }
                return [plain([n], now: now)]
            default: return [plain([n], now: now)]
            }
        }
        return nodes.flatMap(vertical).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    static func dateText(_ d: Date, style: String, now: Date) -> String {
        switch style {
        case "timer", "relative", "offset": return clock(abs(d.timeIntervalSince(now)))
        case "date": return d.formatted(date: .abbreviated, time: .omitted)
        default: return d.formatted(date: .omitted, time: .shortened)
        }
    }

    /// `m:ss`, `h:mm:ss` from an hour (as a timer in a tile shows it).
    static func clock(_ seconds: TimeInterval) -> String {
        let s = Int(max(0, seconds.rounded(.down)))
        let (h, m, sec) = (s / 3600, (s % 3600) / 60, s % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(sec))" : "\(m):\(two(sec))"
    }

    /// The timer a region is made of, when it holds one timer and no other text.
    static func onlyTimer(_ nodes: [JSONValue], now: Date) -> ActivityPresentationText.LiveTimer? {
        var timers: [Date] = []
        var texts = 0
        func walk(_ n: JSONValue) {
            switch n {
            case .string(let s): texts += s.isEmpty ? 0 : 1
            case .array(let a): a.forEach(walk)
            case .object(let o):
                if let t = o["text"]?.string, !t.isEmpty { texts += 1 }
                if o["style"]?.string == "timer", let d = o["date"]?.number { timers.append(Date(timeIntervalSince1970: d)) }
                for k in ["vstack", "hstack", "view"] { if let v = o[k] { walk(v) } }
            default: break
            }
        }
        nodes.forEach(walk)
        guard timers.count == 1, texts == 0, let d = timers.first else { return nil }
        return ActivityPresentationText.LiveTimer(date: d, countsDown: d > now)
    }
}

extension ActivityCoding {
    /// A value as the activities file holds it, decoded as `Activity.request` encoded it
    /// (`json(_:)`): JSONEncoder's defaults, and a value that is not an object under `value`.
    static func stored<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws -> T {
        do { return try decode(T.self, value) } catch {
            if let o = value.object, o.count == 1, let inner = o["value"], let v = try? decode(T.self, inner) {
                return v
            }
            throw error
        }
    }
}

extension ExtensionServer {
    /// The `activity` request: the presentations of one activity of a kind this bundle declares.
    func presentActivity(_ params: [String: JSONValue]) throws -> JSONValue {
        let kind = params["kind"]?.string ?? ""
        guard let a = activities.first(where: { $0.kind == kind }) else {
            throw IntentError(
                "no Live Activity `\(kind.prefix(40))` here (there are: \(activities.map(\.kind).joined(separator: ", ")))")
        }
        return try a.present(params)
    }
}
