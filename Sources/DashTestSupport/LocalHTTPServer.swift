import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny threaded HTTP/1.1 server on 127.0.0.1 for tests: fixture routes, status codes,
/// delays and large bodies, on an ephemeral port. It listens on loopback only and closes
/// each connection after one answer.
public final class LocalHTTPServer: @unchecked Sendable {
    /// A canned answer.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        /// Seconds to wait before answering (to test timeouts).
        public var delay: TimeInterval
        /// Leave out Content-Length and end the body by closing the connection.
        public var omitContentLength: Bool

        public init(
            status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: TimeInterval = 0,
            omitContentLength: Bool = false
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.omitContentLength = omitContentLength
        }
        public init(
            status: Int = 200, contentType: String = "application/json", _ text: String, delay: TimeInterval = 0
        ) {
            self.init(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8), delay: delay)
        }
    }

    /// A request as the server saw it.
    public struct Request: Sendable {
        public var method: String
        /// Path without the query.
        public var path: String
        public var query: [String: String]
        /// Header names lowercased.
        public var headers: [String: String]
    }

    private let lock = NSLock()
    private var routes: [String: @Sendable (Request) -> Response] = [:]
    private var _requests: [Request] = []
    private var listenFD: Int32 = -1
    private var stopped = false
    public private(set) var port: UInt16 = 0

    /// Starts listening on 127.0.0.1 on a free port.
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket() failed") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw ServerError("bind/listen on 127.0.0.1 failed")
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = UInt16(bigEndian: addr.sin_port)
        listenFD = fd
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "LocalHTTPServer"
        thread.start()
    }

    deinit { stop() }

    public struct ServerError: Error, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    /// `http://127.0.0.1:PORT`
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Answers `path` (without query; "*" matches any path) with `response`.
    public func route(_ path: String, _ response: Response) {
        handle(path) { _ in response }
    }

    /// Answers `path` with whatever `handler` makes of the request (to vary on the query).
    public func handle(_ path: String, _ handler: @escaping @Sendable (Request) -> Response) {
        lock.lock()
        routes[path] = handler
        lock.unlock()
    }

    public func route(
        _ path: String, status: Int = 200, contentType: String = "application/json", body: String,
        delay: TimeInterval = 0
    ) {
        route(path, Response(status: status, contentType: contentType, body, delay: delay))
    }

    public var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return _requests
    }

    public func stop() {
        lock.lock()
        let fd = listenFD
        listenFD = -1
        stopped = true
        lock.unlock()
        // Wake the accept loop; it closes the socket itself, so the descriptor number cannot
        // be reused by another server while this loop still calls accept() on it.
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop(_ fd: Int32) {
        defer { close(fd) }
        while true {
            let client = accept(fd, nil, nil)
            lock.lock()
            let done = stopped
            lock.unlock()
            if done {
                if client >= 0 { close(client) }
                return
            }
            if client < 0 {
                if errno == EBADF || errno == EINVAL { return }
                continue
            }
            let t = Thread { [self] in handle(client) }
            t.start()
        }
    }

    private func handle(_ fd: Int32) {
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = [13, 10, 13, 10]
        while buffer.count < 65536 {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return }
            buffer.append(contentsOf: chunk[0..<n])
            if buffer.count >= 4, (0...(buffer.count - 4)).contains(where: { Array(buffer[$0..<$0 + 4]) == end }) {
                break
            }
        }
        let head = String(decoding: buffer, as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let first = lines.first?.split(separator: " ") ?? []
        guard first.count >= 2 else { return }
        let target = String(first[1])
        var comps = URLComponents(string: target)
        if comps == nil { comps = URLComponents() }
        var query: [String: String] = [:]
        for item in comps?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let path = comps?.path ?? target
        let request = Request(method: String(first[0]), path: path, query: query, headers: headers)
        lock.lock()
        _requests.append(request)
        let handler = routes[path] ?? routes["*"]
        lock.unlock()
        let response =
            handler?(request)
            ?? Response(status: 404, contentType: "application/json", "{\"message\":\"Not Found\"}")

        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        var out = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        var hs = response.headers
        if !response.omitContentLength { hs["Content-Length"] = String(response.body.count) }
        hs["Connection"] = "close"
        for (k, v) in hs.sorted(by: { $0.key < $1.key }) { out += "\(k): \(v)\r\n" }
        out += "\r\n"
        guard send(fd, Array(out.utf8)) else { return }
        _ = send(fd, [UInt8](response.body))
    }

    /// Writes all bytes; false when the peer went away (no SIGPIPE).
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { raw -> Int in
                #if canImport(Glibc)
                    return Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                #else
                    return Darwin.send(fd, raw.baseAddress, raw.count, 0)
                #endif
            }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
