import Foundation
import DashWidgets
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
        self.reason = reason; self.message = TextSanitizer.singleLine(message); self.status = status
    }
    public var description: String { message }
    public var errorDescription: String? { message }

    /// The same error with every occurrence of the secrets masked (belt and braces: messages
    /// are built from hosts and statuses, but a server may echo what it was sent).
    func masking(_ secrets: [String]) -> DataSourceError {
        var m = message
        for s in secrets where s.count >= 4 { m = m.replacingOccurrences(of: s, with: "••••") }
        return DataSourceError(reason, m, status: status)
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
        self.connectTimeout = connectTimeout; self.totalTimeout = totalTimeout; self.maxBytes = maxBytes
    }
    public static let standard = HTTPOptions()
}

/// A small GET-only HTTP client on URLSession: explicit timeouts, a size cap enforced
/// while receiving, no silent https→http downgrade on redirects, and errors that say
/// what went wrong without leaking the request.
public struct HTTPClient: Sendable {
    public var options: HTTPOptions
    public init(options: HTTPOptions = .standard) { self.options = options }

    /// GETs `url` and returns the body of a 2xx answer. `notFoundHint` completes a 404
    /// message ("repository or branch not found"); `secrets` are masked out of errors.
    public func get(_ url: URL, headers: [String: String] = [:], notFoundHint: String? = nil,
                    secrets: [String] = []) async throws -> Data {
        // A key or token never travels in clear text, except to this machine (tests, proxies).
        if !secrets.isEmpty, url.scheme?.lowercased() == "http", !Self.isLoopback(url.host ?? "") {
            throw DataSourceError(.insecure, "refusing to send the API key or token to \(Self.hostName(url)) over plain http: use https")
        }
        do {
            return try await fetch(url, headers: headers, notFoundHint: notFoundHint)
        } catch let e as DataSourceError {
            throw e.masking(secrets)
        }
    }

    /// GETs and decodes JSON.
    public func getJSON<T: Decodable>(_ type: T.Type, from url: URL, headers: [String: String] = [:],
                                      notFoundHint: String? = nil, secrets: [String] = []) async throws -> T {
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
            throw DataSourceError(.badData, "\(host) sent a response that is not valid JSON")
        }
    }

    static func path(_ ctx: DecodingError.Context) -> String {
        ctx.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h == "::1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    static func hostName(_ url: URL) -> String {
        guard let host = url.host, !host.isEmpty else { return "the server" }
        if let port = url.port { return "\(host):\(port)" }
        return host
    }

    private func fetch(_ url: URL, headers: [String: String], notFoundHint: String?) async throws -> Data {
        let host = Self.hostName(url)
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            throw DataSourceError(.configuration, "not an http(s) address: use https://host/…")
        }
        // swift-corelibs-foundation handles whole seconds only (a 0.5 s timeout fires at
        // once), so URLSession gets at least 1 s and our watchdog enforces the exact total.
        let idle = max(1, options.connectTimeout.rounded(.up))
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idle)
        request.httpMethod = "GET"
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        if request.value(forHTTPHeaderField: "User-Agent") == nil { request.setValue("swiftdash", forHTTPHeaderField: "User-Agent") }

        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = idle
        config.timeoutIntervalForResource = max(1, options.totalTimeout.rounded(.up))
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.urlCache = nil
        config.httpCookieStorage = nil

        let receiver = Receiver(maxBytes: options.maxBytes, host: host, secureOrigin: scheme == "https")
        let session = URLSession(configuration: config, delegate: receiver, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        let total = options.totalTimeout

        let outcome: Receiver.Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (cont: CheckedContinuation<Receiver.Outcome, Never>) in
                receiver.start(cont)
                task.resume()
                // Our own watchdog: the resource timeout of URLSession is not reliable everywhere.
                DispatchQueue.global().asyncAfter(deadline: .now() + total) { [weak task] in
                    if receiver.fail(DataSourceError(.timeout, "\(host) did not answer within \(Self.seconds(total)) (timeout): check the network or try again later")) {
                        task?.cancel()
                    }
                }
            }
        } onCancel: {
            if receiver.fail(DataSourceError(.timeout, "request to \(host) was cancelled")) { task.cancel() }
        }
        if Task.isCancelled { throw CancellationError() }

        switch outcome {
        case .failure(let e): throw e
        case .transport(let code): throw Self.transportError(code, host: host, total: total)
        case .success(let status, let retryAfter, let rateRemaining, let data):
            if (200..<300).contains(status) { return data }
            throw Self.statusError(status, host: host, retryAfter: retryAfter, rateRemaining: rateRemaining,
                                   notFoundHint: notFoundHint)
        }
    }

    static func seconds(_ t: TimeInterval) -> String {
        t == t.rounded() ? "\(Int(t)) s" : String(format: "%.1f s", t)
    }

    static func transportError(_ code: Int, host: String, total: TimeInterval) -> DataSourceError {
        switch URLError.Code(rawValue: code) {
        case .timedOut:
            return DataSourceError(.timeout, "\(host) did not answer within \(seconds(total)) (timeout): check the network or try again later")
        case .notConnectedToInternet, .cannotConnectToHost, .networkConnectionLost, .cannotFindHost, .dnsLookupFailed:
            return DataSourceError(.unreachable, "cannot reach \(host): offline or the server is down")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return DataSourceError(.insecure, "secure connection to \(host) failed (TLS certificate)")
        case .badServerResponse, .cannotParseResponse:
            return DataSourceError(.badData, "\(host) sent a malformed HTTP answer")
        default:
            return DataSourceError(.unreachable, "network error talking to \(host) (URLError \(code))")
        }
    }

    static func statusError(_ status: Int, host: String, retryAfter: String?, rateRemaining: String?,
                            notFoundHint: String?) -> DataSourceError {
        if status == 429 || (status == 403 && rateRemaining == "0") {
            let wait = retryAfter.flatMap(Int.init).map { ": try again in \($0) s" } ?? ": try again later"
            return DataSourceError(.rateLimited, "rate limited (HTTP \(status)) by \(host)\(wait)", status: status)
        }
        switch status {
        case 300..<400:
            return DataSourceError(.insecure, "HTTP \(status) from \(host): redirect not followed (https to http, or too many)", status: status)
        case 401:
            return DataSourceError(.httpStatus, "HTTP 401 from \(host): missing or invalid API key", status: status)
        case 403:
            return DataSourceError(.httpStatus, "HTTP 403 from \(host): access denied (check the API key or token)", status: status)
        case 404:
            return DataSourceError(.notFound, "HTTP 404 from \(host): \(notFoundHint ?? "not found (check the endpoint)")", status: status)
        case 500..<600:
            return DataSourceError(.httpStatus, "HTTP \(status) from \(host): server error, try again later", status: status)
        default:
            return DataSourceError(.httpStatus, "HTTP \(status) from \(host)", status: status)
        }
    }

    /// Collects one response, enforcing the size cap as bytes arrive.
    final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        enum Outcome: Sendable {
            case success(status: Int, retryAfter: String?, rateRemaining: String?, Data)
            case failure(DataSourceError)
            case transport(Int)
        }
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Outcome, Never>?
        private var finished = false
        private var data = Data()
        private var response: HTTPURLResponse?
        private var error: DataSourceError?
        private let maxBytes: Int
        private let host: String
        private let secureOrigin: Bool

        init(maxBytes: Int, host: String, secureOrigin: Bool) {
            self.maxBytes = maxBytes; self.host = host; self.secureOrigin = secureOrigin
        }

        func start(_ c: CheckedContinuation<Outcome, Never>) {
            lock.lock()
            if finished {
                let e = error
                lock.unlock()
                c.resume(returning: .failure(e ?? DataSourceError(.unreachable, "request to \(host) was cancelled")))
                return
            }
            continuation = c
            lock.unlock()
        }

        /// Ends the request with `e` unless it already ended; true if this call ended it.
        @discardableResult
        func fail(_ e: DataSourceError) -> Bool { finish(.failure(e), error: e) }

        @discardableResult
        private func finish(_ outcome: Outcome, error e: DataSourceError? = nil) -> Bool {
            lock.lock()
            guard !finished else { lock.unlock(); return false }
            finished = true
            error = e
            let c = continuation
            continuation = nil
            lock.unlock()
            c?.resume(returning: outcome)
            return true
        }

        private var tooLarge: DataSourceError {
            let mb = Double(maxBytes) / 1_048_576
            let size = mb >= 1 ? (mb == mb.rounded() ? "\(Int(mb)) MB" : String(format: "%.1f MB", mb)) : "\(maxBytes) bytes"
            return DataSourceError(.tooLarge, "response from \(host) is larger than \(size): refused")
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            let http = response as? HTTPURLResponse
            lock.lock(); self.response = http; lock.unlock()
            if let len = http?.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init), len > maxBytes {
                fail(tooLarge)
                completionHandler(.cancel)
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive chunk: Data) {
            lock.lock()
            data.append(chunk)
            let over = data.count > maxBytes
            if over { data = Data() }
            lock.unlock()
            if over, fail(tooLarge) { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            if secureOrigin, request.url?.scheme?.lowercased() != "https" {
                fail(DataSourceError(.insecure, "\(host) redirected from https to plain http: not followed", status: response.statusCode))
                completionHandler(nil)
                return
            }
            completionHandler(request)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            if let error {
                let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
                finish(.transport(code))
                return
            }
            lock.lock()
            let status = response?.statusCode ?? (task.response as? HTTPURLResponse)?.statusCode ?? 0
            let retry = response?.value(forHTTPHeaderField: "Retry-After")
            let remaining = response?.value(forHTTPHeaderField: "X-RateLimit-Remaining")
            let body = data
            lock.unlock()
            finish(.success(status: status, retryAfter: retry, rateRemaining: remaining, body))
        }
    }
}

extension URL {
    /// `base` + path segments (each percent-encoded) + query, without losing a base path
    /// such as `/api/v3`.
    static func api(_ base: String, _ segments: [String], query: [(String, String)] = []) throws -> URL {
        let trimmed = base.trimmingCharacters(in: .whitespaces)
        guard var comps = URLComponents(string: trimmed), let scheme = comps.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = comps.host, !host.isEmpty else {
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
