import Foundation
import DashBuiltinWidgets

/// What a transport does with each redirect of one request. A pure value, so every rule
/// is tested without a network:
///
/// - only http and https targets (a `file:` Location is refused, not read as a path);
/// - no https → http downgrade once any hop was https;
/// - on the first hop to another origin (scheme, host, port), the headers the request
///   marked secret and the credential headers are dropped, for this hop and all later ones;
/// - a hop that still carries a key or token (a secret header, or a secret inside the
///   URL the server chose) must be https, or plain http to this machine.
struct RedirectPolicy: Sendable {
    struct Origin: Hashable, Sendable {
        var scheme: String
        var host: String
        var port: Int

        init?(_ url: URL) {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = url.host?.lowercased(), !host.isEmpty
            else { return nil }
            self.scheme = scheme
            self.host = host
            port = url.port ?? (scheme == "https" ? 443 : 80)
        }
    }

    enum Decision: Equatable, Sendable {
        /// Follow, without these headers (lowercased names; empty: keep all).
        case follow(dropping: Set<String>)
        case refuse(HTTPTransportError)
    }

    let origin: Origin?
    /// Lowercased names of the headers to drop when the request leaves its origin.
    let secretHeaders: Set<String>
    let secrets: [String]
    /// Whether the request has any of `secretHeaders` at all.
    let secretHeadersPresent: Bool
    private(set) var leftOrigin = false
    private(set) var sawHTTPS: Bool

    init(_ spec: HTTPRequestSpec) {
        let url = URL(string: spec.url)
        origin = url.flatMap(Origin.init)
        secretHeaders = Set((spec.secretHeaders + HTTPRequestSpec.credentialHeaders).map { $0.lowercased() })
        secrets = spec.secrets
        let names = secretHeaders
        secretHeadersPresent = spec.headers.keys.contains { names.contains($0.lowercased()) }
        sawHTTPS = origin?.scheme == "https"
    }

    /// Whether plain http to `url` is allowed while a key or token travels with the request.
    static func mayCarrySecrets(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "https" || HTTPClient.isLoopback(url.host ?? "")
    }

    /// The decision for one hop: `location` is the raw Location header, `target` the URL
    /// URLSession built from it (it reads a Location without a host, such as
    /// `file:///etc/passwd`, as a path on the same server).
    mutating func decide(status: Int, location: String?, target: URL?) -> Decision {
        if let location, let scheme = Self.scheme(of: location), scheme != "http", scheme != "https" {
            return .refuse(HTTPTransportError(.unsupportedRedirect, status: status, message: scheme))
        }
        guard let target, let next = Origin(target) else {
            return .refuse(HTTPTransportError(.unsupportedRedirect, status: status, message: target?.scheme))
        }
        if sawHTTPS && next.scheme == "http" {
            return .refuse(HTTPTransportError(.insecureRedirect, status: status))
        }
        if next.scheme == "https" { sawHTTPS = true }
        if next != origin { leftOrigin = true }
        let dropping = leftOrigin ? secretHeaders : []
        let secretInURL = HTTPRequestSpec.contains(target.absoluteString, anyOf: secrets)
        let carriesSecrets = (!leftOrigin && secretHeadersPresent) || secretInURL
        if carriesSecrets && !Self.mayCarrySecrets(target) {
            return .refuse(HTTPTransportError(.secretOverHTTP, status: status))
        }
        return .follow(dropping: dropping)
    }

    /// The scheme of a Location value, lowercased, if it names one (`file:`, `HTTP:`).
    static func scheme(of location: String) -> String? {
        let t = location.trimmingCharacters(in: .whitespaces)
        guard let colon = t.firstIndex(of: ":") else { return nil }
        let s = t[..<colon]
        guard let first = s.first, first.isASCII, first.isLetter,
            s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return s.lowercased()
    }
}
