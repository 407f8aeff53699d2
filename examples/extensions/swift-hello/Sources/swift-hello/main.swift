import Foundation

// Speaks swiftdash's extension protocol (docs/extensions.md): one JSON request per line on
// stdin, one answer per line on stdout. Foundation only: this package has no dependencies.

/// Waves so far, per name (in memory: swiftdash may start the extension again at any time).
/// Top-level code runs on the main actor, and so do the functions that read this.
var waves: [String: Int] = [:]

@MainActor func entry(_ config: [String: Any], now: Double) -> [String: Any] {
    let name = config["name"] as? String ?? "world"
    let greeting = config["greeting"] as? String ?? "Hello"
    let count = waves[name, default: 0]
    return [
        "date": now, "summary": "\(greeting), \(name)",
        "view": [
            "vstack": [
                ["text": "\(greeting),", "font": "headline"],
                ["text": name, "color": "accent"],
                ["text": count == 1 ? "1 wave" : "\(count) waves", "color": "secondary"],
                // Pressing it sends `perform` with the action "wave".
                ["button": "Wave", "action": "wave"],
            ]
        ],
    ]
}

@MainActor func answer(_ method: String, _ params: [String: Any]) throws -> Any {
    let context = params["context"] as? [String: Any] ?? [:]
    let now = context["now"] as? Double ?? Date().timeIntervalSince1970
    let config = params["config"] as? [String: Any] ?? [:]
    switch method {
    case "describe":
        return [
            "protocol": 1,
            "widgets": [
                [
                    "kind": "hello", "displayName": "Hello", "description": "Greets someone, from Swift",
                    "families": ["small"],
                    "parameters": [
                        ["key": "name", "type": "string", "title": "Name", "default": "world"],
                        // The Edit form asks `options` for these (any word is accepted offline).
                        ["key": "greeting", "type": "dynamicEnum", "title": "Greeting", "default": "Hello"],
                    ],
                ]
            ],
        ]
    case "placeholder":
        return ["date": 0, "view": "Hello, …"]
    case "snapshot":
        return entry(config, now: now)
    case "timeline":
        return ["entries": [entry(config, now: now)], "policy": "never"]
    case "options":
        return ["options": ["Hello", "Hi", ["value": "Moin", "title": "Moin (northern German)"]]]
    case "perform":
        guard params["action"] as? String == "wave" else { throw Failure.unknownAction }
        let name = config["name"] as? String ?? "world"
        waves[name, default: 0] += 1
        // The new timeline comes with the answer: swiftdash shows it without asking again.
        return ["timeline": ["entries": [entry(config, now: now)], "policy": "never"]]
    default:
        throw Failure.unknownMethod
    }
}

enum Failure: Error {
    case unknownMethod, unknownAction
}

while let line = readLine() {
    guard let data = line.data(using: .utf8),
        let request = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { continue }
    var reply: [String: Any] = ["id": request["id"] ?? 0]
    do {
        reply["result"] = try answer(
            request["method"] as? String ?? "", request["params"] as? [String: Any] ?? [:])
    } catch {
        reply["error"] = "\(error)"
    }
    if let out = try? JSONSerialization.data(withJSONObject: reply) {
        FileHandle.standardOutput.write(out + Data("\n".utf8))
    }
}
