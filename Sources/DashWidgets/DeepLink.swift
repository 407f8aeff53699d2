import Foundation

/// A tap target: `swiftdash://KIND/PATH?QUERY` opens a widget's detail pane,
/// `http(s)://…` opens a pane that offers to open the page in a browser.
public struct DeepLink: Hashable, Sendable, CustomStringConvertible {
    public let url: String
    public let scheme: String
    /// The widget kind for `swiftdash:` links.
    public let kind: String?
    public let path: [String]
    public let query: [String: String]

    public init?(_ text: String) {
        guard let comps = URLComponents(string: text), let scheme = comps.scheme?.lowercased() else { return nil }
        self.url = text
        self.scheme = scheme
        switch scheme {
        case "swiftdash":
            guard let host = comps.host, !host.isEmpty else { return nil }
            self.kind = host
        case "http", "https":
            guard comps.host != nil else { return nil }
            self.kind = nil
        default:
            return nil
        }
        self.path = comps.path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        var q: [String: String] = [:]
        for item in comps.queryItems ?? [] { q[item.name] = item.value ?? "" }
        self.query = q
    }

    public var isExternal: Bool { scheme == "http" || scheme == "https" }
    public var description: String { url }

    /// Builds `swiftdash://kind/path…` with each path part percent-encoded.
    public static func make(kind: String, _ path: String..., query: [String: String] = [:]) -> String {
        var comps = URLComponents()
        comps.scheme = "swiftdash"
        comps.host = kind
        comps.path = path.isEmpty ? "" : "/" + path.joined(separator: "/")
        if !query.isEmpty {
            comps.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        return comps.string ?? "swiftdash://\(kind)"
    }
}
