import Foundation
import DashWidgets

/// Why a network widget could not load. The message is what the tile's stale mark and
/// `swiftdash timeline` show, so it names the host and a hint, and never a URL query,
/// a header or a key (API keys travel in queries and headers).
public struct DataSourceError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    public enum Reason: String, Sendable, Hashable {
        case unreachable, timeout, httpStatus, rateLimited, tooLarge, insecure, badData, configuration, notFound
    }
    public var reason: Reason
    public var message: String
    /// The HTTP status, when there was one.
    public var status: Int?

    public init(_ reason: Reason, _ message: String, status: Int? = nil) {
        self.reason = reason
        self.message = TextSanitizer.singleLine(message)
        self.status = status
    }
    public var description: String { message }
    public var errorDescription: String? { message }

    /// The same error with every occurrence of the secrets masked, in the encodings a server
    /// echoes them in (belt and braces: messages are built from hosts and statuses, but a server
    /// may echo what it was sent).
    func masking(_ secrets: [String]) -> DataSourceError {
        DataSourceError(reason, SecretMask(secrets).mask(message), status: status)
    }
}

/// Limits of one HTTP request.
public struct HTTPOptions: Sendable, Hashable {
    /// Seconds to wait for the connection and between packets.
    public var connectTimeout: TimeInterval
    /// Seconds for the whole request, answer included.
    public var totalTimeout: TimeInterval
    /// Bytes accepted in a response body; the transfer is cancelled past it.
    public var maxBytes: Int

    public init(connectTimeout: TimeInterval = 5, totalTimeout: TimeInterval = 10, maxBytes: Int = 5 * 1024 * 1024) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxBytes = maxBytes
    }
    public static let standard = HTTPOptions()
}

/// One HTTP request, as a transport sends it: plain values, so it can cross a process boundary.
public struct HTTPRequestSpec: Sendable, Hashable, Codable {
    public var method: String
    public var url: String
    public var headers: [String: String]
    /// Names of the headers that carry a key or token. A transport drops them (and
    /// `Authorization`, `Proxy-Authorization`, `Cookie` always) on a redirect to another
    /// origin, and never sends them over plain http except to this machine.
    public var secretHeaders: [String]
    /// The keys and tokens themselves, so a transport can tell whether a redirect target
    /// (which the server chooses) carries one. Never logged, never in an error.
    public var secrets: [String]
    /// The request body (the api widget's POST), nil for none.
    public var body: String?

    public init(
        method: String = "GET", url: String, headers: [String: String] = [:],
        secretHeaders: [String] = [], secrets: [String] = [], body: String? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.secretHeaders = secretHeaders
        self.secrets = secrets
        self.body = body
    }

    enum CodingKeys: String, CodingKey { case method, url, headers, secretHeaders, secrets, body }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        method = try c.decode(String.self, forKey: .method)
        url = try c.decode(String.self, forKey: .url)
        headers = try c.decode([String: String].self, forKey: .headers)
        secretHeaders = try c.decodeIfPresent([String].self, forKey: .secretHeaders) ?? []
        secrets = try c.decodeIfPresent([String].self, forKey: .secrets) ?? []
        body = try c.decodeIfPresent(String.self, forKey: .body)
    }

    /// Headers that always carry credentials, whatever the request marked.
    public static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// Whether the request carries a key or token: a secret header, or a secret inside the URL.
    public var carriesSecrets: Bool {
        let marked = Set((secretHeaders + Self.credentialHeaders).map { $0.lowercased() })
        if headers.keys.contains(where: { marked.contains($0.lowercased()) }) { return true }
        return Self.contains(url, anyOf: secrets)
    }

    /// Whether `text` (a URL) holds one of `secrets`, as is or percent-encoded.
    public static func contains(_ text: String, anyOf secrets: [String]) -> Bool {
        secrets.contains { s in
            guard !s.isEmpty else { return false }
            if text.contains(s) { return true }
            let encoded = s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s
            return text.contains(encoded) || text.removingPercentEncoding?.contains(s) == true
        }
    }
}

/// One HTTP answer: the status, the few headers the client reads, and the body.
public struct HTTPResponseData: Sendable, Hashable, Codable {
    /// The response headers `HTTPClient` reads (its error messages use them); transports
    /// return these, under these names, when the server sent them.
    /// (`Content-Type` carries the charset the news widget decodes a feed with.)
    /// (`ETag` and `X-RateLimit-Reset` serve the conditional requests and rate-limit waits of
    /// the api, chart and github widgets; `Date` says how far off the reset is by the server's
    /// clock.)
    public static let wantedHeaders = [
        "Retry-After", "X-RateLimit-Remaining", "Content-Type", "ETag", "X-RateLimit-Reset", "Date",
    ]

    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a transport could not complete a request. Only a kind (and a code or status):
/// `HTTPClient` turns it into the message the user sees, so the wording lives in one place.
public struct HTTPTransportError: Error, Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// No complete answer within the total timeout.
        case timeout
        /// The request was cancelled (the task was).
        case cancelled
        /// No connection: offline, DNS, refused, reset.
        case unreachable
        /// TLS handshake or certificate failure.
        case tls
        /// Not a valid HTTP answer.
        case malformed
        /// The body is larger than `HTTPOptions.maxBytes`.
        case tooLarge
        /// A redirect from https to plain http was refused.
        case insecureRedirect
        /// A redirect to something other than http(s) (`file:`, `ftp:`…) was refused;
        /// `message` holds the scheme asked for.
        case unsupportedRedirect
        /// A redirect would have sent a key or token over plain http to another machine.
        case secretOverHTTP
        /// Not an http(s) URL, or a request the transport cannot send.
        case invalidRequest
        /// The out-of-process helper is missing or failed; `message` says how.
        case helper
        /// Anything else; `code` is the underlying (URLError) code.
        case other
    }
    public var kind: Kind
    public var code: Int?
    public var status: Int?
    /// For `.helper`: a complete message for the user (never holds the request); for
    /// `.unsupportedRedirect`: the scheme the server redirected to.
    public var message: String?
    /// For `.timeout`: the limit that fired, in seconds (the wait for an answer, or the
    /// whole request); nil means `HTTPOptions.totalTimeout`.
    public var seconds: Double?

    public init(_ kind: Kind, code: Int? = nil, status: Int? = nil, message: String? = nil, seconds: Double? = nil) {
        self.kind = kind
        self.code = code
        self.status = status
        self.message = message
        self.seconds = seconds
    }
}

/// Sends one HTTP request. Implementations: `SubprocessTransport` (the default: runs the
/// `swiftdash-fetch` helper so the home screen never loads libcurl and TLS) and
/// `URLSessionTransport` in DashNetworking (in process; the helper and the tests use it).
/// A transport enforces `options` (timeouts, the size cap while receiving, no https→http
/// redirect) and throws `HTTPTransportError` or `CancellationError`; it returns any status.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequestSpec, options: HTTPOptions) async throws -> HTTPResponseData
}
