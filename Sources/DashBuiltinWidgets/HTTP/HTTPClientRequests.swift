import Foundation
import DashWidgets

/// A small GET-only HTTP client over an `HTTPTransport`: explicit timeouts, a size cap,
/// no silent https→http downgrade on redirects, and errors that say what went wrong
/// without leaking the request.
public struct HTTPClient: Sendable {
    public var options: HTTPOptions
    public var transport: any HTTPTransport

    /// By default requests go through the `swiftdash-fetch` helper process.
    public init(options: HTTPOptions = .standard, transport: any HTTPTransport = SubprocessTransport()) {
        self.options = options
        self.transport = transport
    }

    /// GETs `url` and returns the body of a 2xx answer. `notFoundHint` completes a 404
    /// message ("repository or branch not found"); `secrets` are masked out of errors.
    public func get(
        _ url: URL, headers: [String: String] = [:], notFoundHint: String? = nil,
        secrets: [String] = []
    ) async throws -> Data {
        try await getResponse(url, headers: headers, notFoundHint: notFoundHint, secrets: secrets).body
    }

    /// `get`, returning the whole 2xx answer: the body and the headers the transport reads
    /// (`HTTPResponseData.wantedHeaders`), for callers that need `Content-Type`.
    public func getResponse(
        _ url: URL, headers: [String: String] = [:], notFoundHint: String? = nil,
        secrets: [String] = []
    ) async throws -> HTTPResponseData {
        // A key or token never travels in clear text, except to this machine (tests, proxies).
        if !secrets.isEmpty, url.scheme?.lowercased() == "http", !Self.isLoopback(url.host ?? "") {
            throw DataSourceError(
                .insecure, "refusing to send the API key or token to \(Self.hostName(url)) over plain http: use https")
        }
        do {
            return try await fetch(url, headers: headers, notFoundHint: notFoundHint, secrets: secrets)
        } catch let e as DataSourceError {
            throw e.masking(secrets)
        }
    }

    /// GETs and decodes JSON.
    public func getJSON<T: Decodable>(
        _ type: T.Type, from url: URL, headers: [String: String] = [:],
        notFoundHint: String? = nil, secrets: [String] = []
    ) async throws -> T {
        let data = try await get(url, headers: headers, notFoundHint: notFoundHint, secrets: secrets)
        return try Self.decode(type, data, host: Self.hostName(url))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, host: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw DataSourceError(.badData, "\(host) sent JSON without '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, ctx) {
            throw DataSourceError(.badData, "\(host) sent JSON of an unexpected shape at '\(path(ctx))'")
        } catch let DecodingError.valueNotFound(_, ctx) {
            throw DataSourceError(.badData, "\(host) sent JSON with an empty '\(path(ctx))'")
        } catch {
            let why = JSONProblem.describe(data)
            throw DataSourceError(
                .badData, why == "not valid JSON" ? "\(host) sent a response that is not valid JSON" : "\(host) sent \(why)")
        }
    }

    static func path(_ ctx: DecodingError.Context) -> String {
        ctx.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    /// Whether `host` is this machine (where plain http may carry a key: tests, local proxies).
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h == "::1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public static func hostName(_ url: URL) -> String {
        guard let host = url.host, !host.isEmpty else { return "the server" }
        if let port = url.port { return "\(host):\(port)" }
        return host
    }

    private func fetch(
        _ url: URL, headers: [String: String], notFoundHint: String?,
        secrets: [String]
    ) async throws -> HTTPResponseData {
        let host = Self.hostName(url)
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            throw DataSourceError(.configuration, "not an http(s) address: use https://host/…")
        }
        var h = headers
        if !h.keys.contains(where: { $0.caseInsensitiveCompare("User-Agent") == .orderedSame }) {
            h["User-Agent"] = "swiftdash"
        }
        // Headers holding a key or token: the transport drops them when a redirect leaves this origin.
        let secretHeaders = h.filter { _, value in secrets.contains { !$0.isEmpty && value.contains($0) } }
            .keys.sorted()
        let spec = HTTPRequestSpec(
            method: "GET", url: url.absoluteString, headers: h,
            secretHeaders: secretHeaders, secrets: secrets.filter { !$0.isEmpty })
        let response: HTTPResponseData
        do {
            response = try await transport.send(spec, options: options)
        } catch let e as HTTPTransportError {
            throw Self.error(for: e, host: host, options: options)
        }
        if Task.isCancelled { throw CancellationError() }
        if (200..<300).contains(response.status) {
            // Some APIs answer an error with 200 (NewsAPI's "status": "error", CoinMarketCap's
            // error_code): that is the error, not data of an unexpected shape.
            if let e = Self.errorInSuccess(response.body, status: response.status, host: host) { throw e }
            return response
        }
        throw Self.statusError(
            response.status, host: host, retryAfter: response.header("Retry-After"),
            rateRemaining: response.header("X-RateLimit-Remaining"), notFoundHint: notFoundHint,
            body: response.body, rateReset: response.header("X-RateLimit-Reset"), serverDate: response.header("Date"))
    }

    /// When a rate limit ends, from `X-RateLimit-Reset` (seconds since 1970): "in 12 min" by the
    /// server's own clock (its `Date`), else "after 09:42 UTC"; nil without a usable reset.
    static func resetWait(_ reset: String?, serverDate: String?) -> String? {
        guard let r = reset.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), r.isFinite, r > 0, r < 1e11
        else { return nil }
        let at = Date(timeIntervalSince1970: r)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(secondsFromGMT: 0)
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        if let now = serverDate.flatMap(f.date(from:)) {
            let minutes = Int((at.timeIntervalSince(now) / 60).rounded(.up))
            if (0...1440).contains(minutes) { return minutes <= 1 ? "in a minute" : "in \(minutes) min" }
        }
        f.dateFormat = "HH:mm"
        return "after \(f.string(from: at)) UTC"
    }

    static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? "\(Int(clamping: t)) s" : FixedFormat.decimal(t, places: 1) + " s"
    }

    /// The message the user sees for a transport failure.
    public static func error(for e: HTTPTransportError, host: String, options: HTTPOptions) -> DataSourceError {
        switch e.kind {
        case .timeout:
            let limit = seconds(e.seconds ?? options.totalTimeout)
            return DataSourceError(
                .timeout,
                "\(host) did not answer within \(limit) (timeout): "
                    + "check the network or try again later")
        case .cancelled:
            return DataSourceError(.timeout, "request to \(host) was cancelled")
        case .unreachable:
            return DataSourceError(.unreachable, "cannot reach \(host): offline or the server is down")
        case .tls:
            return DataSourceError(.insecure, "secure connection to \(host) failed (TLS certificate)")
        case .malformed:
            return DataSourceError(.badData, "\(host) sent a malformed HTTP answer")
        case .tooLarge:
            return tooLarge(host: host, maxBytes: options.maxBytes)
        case .insecureRedirect:
            return DataSourceError(
                .insecure, "\(host) redirected from https to plain http: not followed", status: e.status)
        case .unsupportedRedirect:
            let scheme = String(TextSanitizer.singleLine(e.message ?? "").prefix(20))
            let target = scheme.isEmpty ? "an address that is not http(s)" : "a \(scheme): address"
            return DataSourceError(
                .insecure, "\(host) redirected to \(target): not followed (only http and https are)",
                status: e.status)
        case .secretOverHTTP:
            return DataSourceError(
                .insecure,
                "\(host) redirected to plain http with the API key or token: "
                    + "not followed (keys go over https only)", status: e.status)
        case .invalidRequest:
            return DataSourceError(.configuration, "not an http(s) address: use https://host/…")
        case .helper:
            return DataSourceError(.unreachable, e.message ?? "the network helper swiftdash-fetch failed")
        case .other:
            return DataSourceError(.unreachable, "network error talking to \(host) (URLError \(e.code ?? 0))")
        }
    }

    static func tooLarge(host: String, maxBytes: Int) -> DataSourceError {
        let mb = Double(maxBytes) / 1_048_576
        let size =
            mb >= 1
            ? (mb == mb.rounded() ? "\(Int(clamping: mb)) MB" : FixedFormat.decimal(mb, places: 1) + " MB") : "\(maxBytes) bytes"
        return DataSourceError(.tooLarge, "response from \(host) is larger than \(size): refused")
    }

    static func statusError(
        _ status: Int, host: String, retryAfter: String?, rateRemaining: String?,
        notFoundHint: String?, body: Data = Data(), rateReset: String? = nil, serverDate: String? = nil
    ) -> DataSourceError {
        // The server's own words, when its body carries any: the tile and the status bar show them.
        let said = serverMessage(body)
        if status == 429 || (status == 403 && rateRemaining == "0") {
            let wait =
                retryAfter.flatMap(Int.init).map { ": try again in \($0) s" }
                ?? resetWait(rateReset, serverDate: serverDate).map { ": try again \($0)" } ?? ": try again later"
            let why = said.map { " (\($0))" } ?? ""
            return DataSourceError(
                .rateLimited, "rate limited (HTTP \(status)) by \(host)\(wait)\(why)",
                status: status)
        }
        if let said, (400..<600).contains(status) {
            return DataSourceError(
                status == 404 ? .notFound : .httpStatus, "HTTP \(status) from \(host): \(said)",
                status: status)
        }
        switch status {
        case 304:
            // Reaching here, there is no earlier answer to show again (none remembered, or the
            // cache was cleared): the request asked only for changes some other way.
            return DataSourceError(
                .badData,
                "HTTP 304 (not modified) from \(host), but swiftdash has no earlier answer to show "
                    + "(an If-None-Match or If-Modified-Since header in the request?)",
                status: status)
        case 300..<400:
            return DataSourceError(
                .insecure, "HTTP \(status) from \(host): redirect not followed (https to http, or too many)",
                status: status)
        case 401:
            return DataSourceError(.httpStatus, "HTTP 401 from \(host): missing or invalid API key", status: status)
        case 403:
            return DataSourceError(
                .httpStatus, "HTTP 403 from \(host): access denied (check the API key or token)", status: status)
        case 404:
            return DataSourceError(
                .notFound, "HTTP 404 from \(host): \(notFoundHint ?? "not found (check the endpoint)")", status: status)
        case 500..<600:
            return DataSourceError(
                .httpStatus, "HTTP \(status) from \(host): server error, try again later", status: status)
        default:
            return DataSourceError(.httpStatus, "HTTP \(status) from \(host)", status: status)
        }
    }

    /// The longest server message shown, in characters.
    static let maxServerMessage = 160

    /// What an error body says, cleaned for one line and capped: the message of a JSON error
    /// (`message`, `error`, `error_message`, `detail`, `status` … in the shapes GitHub,
    /// NewsAPI, CoinGecko, CoinMarketCap and RFC 7807 use), or a short plain-text body. Nil
    /// for an empty or HTML body, and for a bare reason phrase ("Not Found"), which says no
    /// more than the status and less than the hint swiftdash has.
    public static func serverMessage(_ body: Data) -> String? {
        guard !body.isEmpty, body.count <= 64 * 1024 else { return nil }
        let text = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var found: String?
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
            guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
                return nil
            }
            found = message(in: json, depth: 0)
        } else if !trimmed.hasPrefix("<"), trimmed.count <= 300 {
            found = trimmed
        }
        guard let raw = found else { return nil }
        var line = TextSanitizer.singleLine(raw)
        let phrase = line.lowercased().trimmingCharacters(in: .punctuationCharacters)
        guard !line.isEmpty, !genericPhrases.contains(phrase) else { return nil }
        if line.count > maxServerMessage {
            var cut = String(line.prefix(maxServerMessage - 1))
            if let space = cut.lastIndex(of: " "),
                cut.distance(from: cut.startIndex, to: space) > maxServerMessage / 2
            {
                cut = String(cut[..<space])
            }
            line = cut.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters)) + "…"
        }
        return line
    }

    /// Reason phrases that repeat the status code.
    static let genericPhrases: Set<String> = [
        "not found", "unauthorized", "forbidden", "bad request", "internal server error", "service unavailable",
        "bad gateway", "gateway timeout", "too many requests", "conflict", "error", "unknown error",
    ]

    /// The message of a JSON error, in the shapes APIs use.
    static func message(in json: Any, depth: Int) -> String? {
        guard depth < 4 else { return nil }
        if let s = json as? String { return s.isEmpty ? nil : s }
        if let list = json as? [Any] { return list.first.flatMap { message(in: $0, depth: depth + 1) } }
        guard let obj = json as? [String: Any] else { return nil }
        // CoinMarketCap and CoinGecko's pro API: {"status": {"error_code": 1002, "error_message": "…"}}
        if let status = obj["status"] as? [String: Any], let m = status["error_message"] as? String, !m.isEmpty {
            return m
        }
        // GitHub, NewsAPI: {"message": "…"}
        if let m = obj["message"] as? String, !m.isEmpty { return m }
        // {"error": "…"} (CoinGecko), {"error": "…", "error_description": "…"} (OAuth), {"error": {"message": "…"}}
        if let e = obj["error"] as? String, !e.isEmpty {
            if let d = obj["error_description"] as? String, !d.isEmpty { return "\(e): \(d)" }
            return e
        }
        if let e = obj["error"] as? [String: Any], let m = message(in: e, depth: depth + 1) { return m }
        if let m = obj["error_message"] as? String, !m.isEmpty { return m }
        // RFC 7807 problem details.
        if let d = obj["detail"] as? String, !d.isEmpty { return d }
        if let t = obj["title"] as? String, !t.isEmpty { return t }
        if let errors = obj["errors"] as? [Any], let m = errors.first.flatMap({ message(in: $0, depth: depth + 1) }) {
            return m
        }
        // {"status": "Service temporarily unavailable"}, but not a bare "error" or "ok".
        if let s = obj["status"] as? String, !["error", "ok", "fail", "failed", "success"].contains(s.lowercased()) {
            return s
        }
        return nil
    }

    /// The error a 2xx answer carries in one of the shapes APIs use for errors, or nil for data:
    /// NewsAPI's `{"status": "error", "code", "message"}`, CoinMarketCap's `status.error_code`
    /// other than 0, GitHub's `{"message", "documentation_url"}`, a lone `{"error": …}`.
    static func errorInSuccess(_ body: Data, status: Int, host: String) -> DataSourceError? {
        guard body.count <= 64 * 1024, body.first(where: { !" \t\r\n".utf8.contains($0) }) == UInt8(ascii: "{"),
            let obj = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        else { return nil }
        var code: String?
        var isError = false
        if let s = obj["status"] as? String, s.lowercased() == "error" {
            isError = true
            code = obj["code"] as? String
        } else if let st = obj["status"] as? [String: Any], let n = st["error_code"] as? NSNumber, n.intValue != 0,
            let m = st["error_message"] as? String, !m.isEmpty
        {
            isError = true
            code = n.stringValue
        } else if obj["message"] is String && obj["documentation_url"] != nil {
            isError = true
        } else if obj["error"] is String || obj["error"] is [String: Any] {
            let dataKeys: Set<String> = ["data", "result", "results", "articles", "items", "entries"]
            isError = dataKeys.isDisjoint(with: obj.keys)
        }
        guard isError else { return nil }
        let said = serverMessage(body) ?? code.map { "error \($0)" } ?? "an error"
        let limited =
            code.map { c in ["ratelimited", "1008", "1010", "1011", "429"].contains(c.lowercased()) } ?? false
        return DataSourceError(limited ? .rateLimited : .httpStatus, "\(host): \(said)", status: status)
    }
}

extension HTTPResponseData {
    /// A header by name, whatever its case.
    public func header(_ name: String) -> String? {
        if let v = headers[name] { return v }
        return headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension URL {
    /// `base` + path segments (each percent-encoded) + query, without losing a base path
    /// such as `/api/v3`.
    static func api(_ base: String, _ segments: [String], query: [(String, String)] = []) throws -> URL {
        let trimmed = base.trimmingCharacters(in: .whitespaces)
        guard var comps = URLComponents(string: trimmed), let scheme = comps.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = comps.host, !host.isEmpty
        else {
            throw DataSourceError(.configuration, "endpoint is not an http(s) address: use https://host/…")
        }
        var path = comps.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))
        for s in segments {
            path += "/" + (s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s)
        }
        comps.percentEncodedPath = path
        if !query.isEmpty {
            comps.queryItems = (comps.queryItems ?? []) + query.map { URLQueryItem(name: $0.0, value: $0.1) }
        }
        guard let url = comps.url else { throw DataSourceError(.configuration, "endpoint is not a valid address") }
        return url
    }
}
