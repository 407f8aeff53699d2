import Foundation
import DashWidgets

/// What one request of the api, chart and github widgets came to: a body to read (fresh, or
/// the remembered one when the server said 304 Not Modified), or a failure that costs only
/// the tile, with a message saying what to do and when the widget may ask again.
enum HTTPOutcome: Sendable {
    case body(Data, notModified: Bool)
    case failed(TileFailure)
}

/// A failure shown in the tile (not thrown): the words, and the earliest time to ask again.
struct TileFailure: Error, Sendable, Hashable, Codable {
    var message: String
    var retryAt: Date
    var status: Int?
    /// Rate limited: the tile keeps the last good data it has, under this message.
    var isRateLimit: Bool
}

/// Bodies and `ETag`s of the last good answers, per URL, in memory: a reload that changed
/// nothing is a conditional request (`If-None-Match`), which GitHub does not charge against
/// the rate limit. Bounded (entries and bytes); never written to disk (answers may be private).
final class ResponseMemory: @unchecked Sendable {
    struct Item {
        var etag: String?
        var body: Data
        var stamp: UInt64
    }
    private let lock = NSLock()
    private var items: [String: Item] = [:]
    private var clock: UInt64 = 0
    let maxItems: Int
    let maxBytes: Int

    init(maxItems: Int = 64, maxBytes: Int = 4 * 1024 * 1024) {
        self.maxItems = maxItems
        self.maxBytes = maxBytes
    }

    func get(_ key: String) -> Item? { lock.withLock { items[key] } }

    func put(_ key: String, etag: String?, body: Data) {
        lock.withLock {
            guard body.count <= maxBytes / 4 else {
                items[key] = nil
                return
            }
            clock &+= 1
            items[key] = Item(etag: etag, body: body, stamp: clock)
            while items.count > maxItems || items.values.reduce(0, { $0 + $1.body.count }) > maxBytes {
                guard let oldest = items.min(by: { $0.value.stamp < $1.value.stamp })?.key else { break }
                items[oldest] = nil
            }
        }
    }
}

extension HTTPClient {
    /// Sends `method` to `url` and sorts the answer: 2xx and 304 give a body; 401, 403, 404,
    /// 429 and 5xx give a `TileFailure` whose `retryAt` honours `Retry-After` and
    /// `X-RateLimit-Reset`; a transport failure is thrown (`DataSourceError`), so the scheduler
    /// keeps the last good timeline, marked stale, and backs off. `secrets` never appear in
    /// a message.
    func exchange(
        _ url: URL, method: String = "GET", headers: [String: String] = [:], body: String? = nil,
        secrets: [String] = [], memory: ResponseMemory? = nil, now: Date, timeZone: TimeZone,
        authHint: String, notFoundHint: String
    ) async throws -> HTTPOutcome {
        let secrets = secrets.filter { !$0.isEmpty }
        let host = Self.hostName(url)
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            throw DataSourceError(.configuration, "not an http(s) address: use https://host/…")
        }
        if !secrets.isEmpty, scheme == "http", !Self.isLoopback(url.host ?? "") {
            throw DataSourceError(
                .insecure, "refusing to send the API key or token to \(host) over plain http: use https")
        }
        var h = headers
        if !h.keys.contains(where: { $0.caseInsensitiveCompare("User-Agent") == .orderedSame }) {
            h["User-Agent"] = "swiftdash"
        }
        let key = method + " " + url.absoluteString
        let remembered = method == "GET" ? memory?.get(key) : nil
        if let etag = remembered?.etag { h["If-None-Match"] = etag }
        let secretHeaders = h.filter { _, value in secrets.contains { value.contains($0) } }.keys.sorted()
        let spec = HTTPRequestSpec(
            method: method, url: url.absoluteString, headers: h, secretHeaders: secretHeaders, secrets: secrets,
            body: body)
        let response: HTTPResponseData
        do {
            response = try await transport.send(spec, options: options)
        } catch let e as HTTPTransportError {
            let error = Self.error(for: e, host: host, options: options).masking(secrets)
            // Not a passing trouble: the same answer will be as large next time.
            if e.kind == .tooLarge {
                return .failed(
                    TileFailure(
                        message: error.message + "; point the url at a smaller answer",
                        retryAt: now.addingTimeInterval(30 * 60), status: nil, isRateLimit: false))
            }
            throw error
        }
        if Task.isCancelled { throw CancellationError() }
        if response.status == 304, let remembered { return .body(remembered.body, notModified: true) }
        if (200..<300).contains(response.status) {
            if method == "GET" { memory?.put(key, etag: response.header("ETag"), body: response.body) }
            return .body(response.body, notModified: false)
        }
        let failure = Self.tileFailure(
            response, host: host, now: now, timeZone: timeZone, authHint: authHint, notFoundHint: notFoundHint)
        guard let failure else {
            throw Self.statusError(
                response.status, host: host, retryAfter: response.header("Retry-After"),
                rateRemaining: response.header("X-RateLimit-Remaining"), notFoundHint: notFoundHint,
                body: response.body
            ).masking(secrets)
        }
        var masked = failure
        masked.message = SecretMask(secrets).mask(masked.message)
        return .failed(masked)
    }

    /// When the server allows the next request: `Retry-After` (seconds or an HTTP date), else
    /// `X-RateLimit-Reset` (Unix seconds, GitHub's), else nil.
    static func waitUntil(_ response: HTTPResponseData, now: Date) -> Date? {
        if let r = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces), !r.isEmpty {
            if let s = Double(r), s.isFinite, s >= 0 { return now.addingTimeInterval(min(s, 86_400)) }
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(secondsFromGMT: 0)
            f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            if let d = f.date(from: r) { return min(max(d, now), now.addingTimeInterval(86_400)) }
        }
        if let r = response.header("X-RateLimit-Reset"), let s = Double(r.trimmingCharacters(in: .whitespaces)),
            s.isFinite, s > 0, s < 1e11
        {
            let d = Date(timeIntervalSince1970: s)
            return min(max(d, now), now.addingTimeInterval(86_400))
        }
        return nil
    }

    /// "14:05" in the user's time zone, with the day when it is not today.
    static func clockTime(_ d: Date, now: Date, timeZone: TimeZone) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let c = cal.dateComponents([.hour, .minute, .day, .month], from: d)
        let hm = String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
        if cal.isDate(d, inSameDayAs: now) { return hm }
        return String(format: "%02d-%02d ", c.month ?? 0, c.day ?? 0) + hm
    }

    /// The tile's message and next try for an HTTP error status; nil for statuses left to
    /// the scheduler's back-off (a 5xx without `Retry-After`, odd statuses).
    static func tileFailure(
        _ response: HTTPResponseData, host: String, now: Date, timeZone: TimeZone, authHint: String,
        notFoundHint: String
    ) -> TileFailure? {
        let status = response.status
        let said = serverMessage(response.body).map { " (\($0))" } ?? ""
        let wait = waitUntil(response, now: now)
        let limited =
            status == 429
            || (status == 403
                && response.header("X-RateLimit-Remaining")?.trimmingCharacters(
                    in: .whitespaces) == "0")
        if limited {
            // At least a minute, so a reset in the past does not make the widget spin.
            let at = max(wait ?? now.addingTimeInterval(15 * 60), now.addingTimeInterval(60))
            let source = response.header("Retry-After") != nil ? "Retry-After" : wait != nil ? "X-RateLimit-Reset" : ""
            let when = clockTime(at, now: now, timeZone: timeZone)
            return TileFailure(
                message: "rate limited by \(host) (HTTP \(status)) until \(when)"
                    + (source.isEmpty ? " (no reset time sent; next try then)" : " (\(source))")
                    + "; the tile reloads then",
                retryAt: at, status: status, isRateLimit: true)
        }
        let later = now.addingTimeInterval(30 * 60)
        switch status {
        case 401:
            return TileFailure(
                message: "HTTP 401 from \(host): the token is missing or invalid\(said); \(authHint)",
                retryAt: later, status: status, isRateLimit: false)
        case 403:
            return TileFailure(
                message: "HTTP 403 from \(host): access denied\(said); \(authHint)",
                retryAt: later, status: status, isRateLimit: false)
        case 404:
            return TileFailure(
                message: "HTTP 404 from \(host): \(notFoundHint)\(said)", retryAt: later, status: status,
                isRateLimit: false)
        case 500..<600 where wait != nil:
            let at = max(wait ?? now, now.addingTimeInterval(30))
            return TileFailure(
                message: "HTTP \(status) from \(host): server trouble\(said); next try at "
                    + clockTime(at, now: now, timeZone: timeZone) + " (Retry-After)",
                retryAt: at, status: status, isRateLimit: false)
        default:
            return nil
        }
    }
}
