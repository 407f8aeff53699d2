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
