import Foundation

// Speaks swiftdash's extension protocol (docs/extensions.md): one JSON request per line.
func answer(_ method: String, _ params: [String: Any]) -> Any {
    let context = params["context"] as? [String: Any] ?? [:]
    let now = context["now"] as? Double ?? Date().timeIntervalSince1970
    let config = params["config"] as? [String: Any] ?? [:]
    let name = config["name"] as? String ?? "world"
    switch method {
    case "describe":
        return ["protocol": 1, "widgets": [[
            "kind": "hello", "displayName": "Hello", "description": "Greets someone, from Swift",
            "families": ["small"],
            "parameters": [["key": "name", "type": "string", "title": "Name", "default": "world"]],
        ]]]
    case "placeholder":
        return ["date": 0, "view": "Hello, …"]
    case "timeline", "snapshot":
        let entry: [String: Any] = ["date": now, "summary": "Hello, \(name)",
                                    "view": ["vstack": [["text": "Hello,", "font": "headline"],
                                                        ["text": name, "color": "accent"],
                                                        ["date": now, "style": "relative"]]]]
        return method == "snapshot" ? entry : ["entries": [entry], "policy": "never"]
    default:
        return ["options": []]
    }
}

while let line = readLine() {
    guard let data = line.data(using: .utf8),
          let request = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
    let reply: [String: Any] = ["id": request["id"] ?? 0,
                                "result": answer(request["method"] as? String ?? "", request["params"] as? [String: Any] ?? [:])]
    if let out = try? JSONSerialization.data(withJSONObject: reply) {
        FileHandle.standardOutput.write(out + Data("\n".utf8))
    }
}
