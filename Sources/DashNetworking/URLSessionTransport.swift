import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import DashBuiltinWidgets

/// The in-process `HTTPTransport` on URLSession: explicit timeouts, a size cap enforced
/// while receiving, and redirects checked hop by hop (`RedirectPolicy`: http(s) only, no
/// https→http downgrade, keys and tokens dropped when the request leaves its origin and
/// never sent over plain http). Importing this module makes a
/// process load libcurl and its TLS stack (~8 MB of RSS), which is why the home screen
/// does not: it runs the `swiftdash-fetch` helper, which uses this transport.
public struct URLSessionTransport: HTTPTransport {
    public init() {}

    public func send(_ spec: HTTPRequestSpec, options: HTTPOptions) async throws -> HTTPResponseData {
        guard let url = URL(string: spec.url), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        else {
            throw HTTPTransportError(.invalidRequest)
        }
        // A key or token never goes over plain http to another machine (HTTPClient says so
        // first, with its own message; this holds for any caller of the helper).
        if spec.carriesSecrets && !RedirectPolicy.mayCarrySecrets(url) {
            throw HTTPTransportError(.secretOverHTTP)
        }
        // swift-corelibs-foundation handles whole seconds only (a 0.5 s timeout fires at
        // once), so URLSession gets at least 1 s and our watchdog enforces the exact total.
        let idle = max(1, options.connectTimeout.rounded(.up))
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idle)
        request.httpMethod = spec.method
        if let body = spec.body { request.httpBody = Data(body.utf8) }
        for (k, v) in spec.headers { request.setValue(v, forHTTPHeaderField: k) }

        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = idle
        config.timeoutIntervalForResource = max(1, options.totalTimeout.rounded(.up))
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.urlCache = nil
        config.httpCookieStorage = nil

        let receiver = Receiver(maxBytes: options.maxBytes, redirects: RedirectPolicy(spec))
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
                    if receiver.fail(HTTPTransportError(.timeout)) { task?.cancel() }
                }
            }
        } onCancel: {
            if receiver.fail(HTTPTransportError(.cancelled)) { task.cancel() }
        }
        if Task.isCancelled { throw CancellationError() }

        switch outcome {
        case .failure(let e): throw e
        case .transport(let code):
            var e = Self.transportError(code)
            // URLSession's own timeout is the wait for an answer (the total has our watchdog).
            if e.kind == .timeout { e.seconds = min(idle, total) }
            throw e
        case .success(let response): return response
        }
    }

    /// The kind of a URLError code.
    static func transportError(_ code: Int) -> HTTPTransportError {
        switch URLError.Code(rawValue: code) {
        case .timedOut:
            return HTTPTransportError(.timeout)
        case .notConnectedToInternet, .cannotConnectToHost, .networkConnectionLost, .cannotFindHost, .dnsLookupFailed:
            return HTTPTransportError(.unreachable)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return HTTPTransportError(.tls)
        case .badServerResponse, .cannotParseResponse:
            return HTTPTransportError(.malformed)
        default:
            return HTTPTransportError(.other, code: code)
        }
    }

    /// Collects one response, enforcing the size cap as bytes arrive.
    final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        enum Outcome: Sendable {
            case success(HTTPResponseData)
            case failure(HTTPTransportError)
            case transport(Int)
        }
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Outcome, Never>?
        private var finished = false
        private var data = Data()
        private var response: HTTPURLResponse?
        private var error: HTTPTransportError?
        private let maxBytes: Int
        private var redirects: RedirectPolicy

        init(maxBytes: Int, redirects: RedirectPolicy) {
            self.maxBytes = maxBytes
            self.redirects = redirects
        }

        func start(_ c: CheckedContinuation<Outcome, Never>) {
            lock.lock()
            if finished {
                let e = error
                lock.unlock()
                c.resume(returning: .failure(e ?? HTTPTransportError(.cancelled)))
                return
            }
            continuation = c
            lock.unlock()
        }

        /// Ends the request with `e` unless it already ended; true if this call ended it.
        @discardableResult
        func fail(_ e: HTTPTransportError) -> Bool { finish(.failure(e), error: e) }

        @discardableResult
        private func finish(_ outcome: Outcome, error e: HTTPTransportError? = nil) -> Bool {
            lock.lock()
            guard !finished else {
                lock.unlock()
                return false
            }
            finished = true
            error = e
            let c = continuation
            continuation = nil
            lock.unlock()
            c?.resume(returning: outcome)
            return true
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let http = response as? HTTPURLResponse
            lock.lock()
            self.response = http
            lock.unlock()
            if let len = http?.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init), len > maxBytes {
                fail(HTTPTransportError(.tooLarge))
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
            if over, fail(HTTPTransportError(.tooLarge)) { dataTask.cancel() }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            lock.lock()
            let location = response.value(forHTTPHeaderField: "Location")
            let decision = redirects.decide(status: response.statusCode, location: location, target: request.url)
            lock.unlock()
            switch decision {
            case .refuse(let e):
                fail(e)
                completionHandler(nil)
            case .follow(let dropping):
                var next = request
                for name in next.allHTTPHeaderFields?.keys.filter({ dropping.contains($0.lowercased()) }) ?? [] {
                    next.setValue(nil, forHTTPHeaderField: name)
                }
                completionHandler(next)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            if let error {
                let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
                finish(.transport(code))
                return
            }
            lock.lock()
            let http = response ?? (task.response as? HTTPURLResponse)
            var headers: [String: String] = [:]
            for name in HTTPResponseData.wantedHeaders {
                if let v = http?.value(forHTTPHeaderField: name) { headers[name] = v }
            }
            let result = HTTPResponseData(status: http?.statusCode ?? 0, headers: headers, body: data)
            lock.unlock()
            finish(.success(result))
        }
    }
}
