import Foundation
import DashApp
import DashHome
import DashUnixSocket
#if canImport(Glibc)
    import Glibc
#endif

/// glibc's accept4 (hidden behind _GNU_SOURCE in the Swift overlay): the connection closes on
/// exec from the start, so a process spawned at the same moment cannot inherit it.
@_silgen_name("accept4")
func systemAccept4(
    _ fd: Int32, _ addr: UnsafeMutablePointer<sockaddr>?, _ len: UnsafeMutablePointer<socklen_t>?, _ flags: Int32
) -> Int32

/// The Unix socket through which `swiftdash reload [KIND]` reaches a running swiftdash
/// (WidgetCenter from another process). One line in (`reload` or `reload KIND`), one out;
/// see `ControlProtocol`.
public enum ControlSocket {
    public enum ClientError: Error, CustomStringConvertible {
        case notRunning(String)
        /// The socket or its folder is not the user's own and private (`SocketTrust`).
        case untrusted(String)
        case failed(String)
        public var description: String {
            switch self {
            case .notRunning(let path):
                return "no running swiftdash found (no one listens on \(path)); start it with `swiftdash`"
            case .untrusted(let why), .failed(let why): return why
            }
        }
    }

    static func address(_ path: String) -> sockaddr_un? { UnixSocketAddress.address(path) }

    static func connect(_ fd: Int32, _ path: String) -> Int32? { UnixSocketAddress.connect(fd, path) }

    /// The longest answer a client reads.
    public static let maxAnswer = ControlProtocol.maxAnswer

    /// Sends one command to a running swiftdash and returns its answer.
    public static func send(_ command: String, to path: String) throws -> String {
        if let why = SocketTrust.problem(socketAt: path) { throw ClientError.untrusted(why) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ClientError.failed("cannot create a socket") }
        defer { close(fd) }
        guard let rc = connect(fd, path) else { throw ClientError.failed("socket path too long: \(path)") }
        guard rc == 0 else { throw ClientError.notRunning(path) }
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let line = Array((command + "\n").utf8)
        var sent = 0
        while sent < line.count {
            let n = line[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw ClientError.failed("swiftdash stopped reading on \(path)") }
            sent += n
        }
        // The answer ends with the connection (a `snapshot` answer can be long).
        var answer: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65_536)
        while answer.count <= maxAnswer {
            let n = read(fd, &buf, buf.count)
            if n <= 0 { break }
            answer += buf[0..<n]
        }
        guard !answer.isEmpty else { throw ClientError.failed("swiftdash did not answer on \(path)") }
        return String(decoding: answer.prefix(maxAnswer), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Listens on `path` in a background thread; each command goes to `handle`, whose
    /// answer is written back. Returns nil (and says why) if the socket cannot be made.
    public final class Server: @unchecked Sendable {
        let fd: Int32
        public let path: String

        public init(path: String, handle: @escaping @Sendable (String) -> String) throws {
            // A client that hangs up before reading the answer must not kill the program.
            signal(SIGPIPE, SIG_IGN)
            self.path = path
            let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try FileManager.default.createDirectory(
                atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // The folder may be in /tmp: use it only if it is ours and private.
            var st = stat()
            guard lstat(dir, &st) == 0, st.st_uid == getuid(), (st.st_mode & S_IFMT) == S_IFDIR, st.st_mode & 0o077 == 0
            else {
                throw ClientError.failed("\(dir) is not a private folder owned by you; not listening there")
            }
            // A socket file nobody listens on is left from a crash: replace it. One that
            // answers belongs to another running swiftdash: leave it alone.
            if FileManager.default.fileExists(atPath: path) {
                if (try? ControlSocket.send("ping", to: path)) != nil {
                    throw ClientError.failed("another swiftdash already listens on \(path)")
                }
                unlink(path)
            }
            let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard sock >= 0 else { throw ClientError.failed("cannot create a socket") }
            guard let ok = UnixSocketAddress.withAddress(path, { bind(sock, $0, $1) }) else {
                close(sock)
                throw ClientError.failed("socket path too long: \(path)")
            }
            guard ok == 0, listen(sock, 128) == 0 else {
                close(sock)
                throw ClientError.failed("cannot listen on \(path)")
            }
            chmod(path, 0o600)
            self.fd = sock
            let fd = sock
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let thread = Thread { Server.serve(listener: fd, handle: handle) }
            thread.stackSize = 256 * 1024
            thread.start()
        }

        /// One connection being read: its bytes so far and when it must be done.
        struct Client {
            var fd: Int32
            var buffer: [UInt8] = []
            var deadline: Double
        }

        /// How long a client may take to send its line.
        public static let clientDeadline: Double = 2
        /// At most this many connections are read at once; beyond it the oldest is dropped.
        public static let maxClients = 64

        static func monotonic() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }

        /// Serves every connection from one thread with `poll`: a slow or idle client costs a
        /// slot until its deadline, never the others' turn (a flood of idle connections does
        /// not block `swiftdash reload`).
        static func serve(listener: Int32, handle: @Sendable (String) -> String) {
            var clients: [Client] = []
            while true {
                let now = monotonic()
                // Drop clients past their deadline.
                clients.removeAll { c in
                    if c.deadline <= now {
                        close(c.fd)
                        return true
                    }
                    return false
                }
                var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
                fds += clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
                let wait = clients.map(\.deadline).min().map { Int32(clamping: (($0 - now) * 1000).rounded(.up), to: 0...Int32.max - 1) } ?? -1
                let n = poll(&fds, nfds_t(fds.count), wait)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if fds[0].revents & Int16(POLLNVAL | POLLHUP | POLLERR) != 0 { break }
                var done: Set<Int32> = []
                for (i, p) in fds.enumerated().dropFirst() where p.revents != 0 {
                    var chunk = [UInt8](repeating: 0, count: 65_536)
                    let r = read(p.fd, &chunk, chunk.count)
                    var c = clients[i - 1]
                    if r > 0 { c.buffer += chunk[0..<r] }
                    if let framed = ControlProtocol.frame(c.buffer, ended: r <= 0) {
                        let answer: String
                        switch framed {
                        case .line(let text): answer = handle(text)
                        case .tooLong: answer = "error: line too long"
                        }
                        let out = Array((answer + "\n").utf8)
                        sendAll(out, to: p.fd)
                        close(p.fd)
                        done.insert(p.fd)
                    } else {
                        clients[i - 1] = c
                    }
                }
                clients.removeAll { done.contains($0.fd) }
                if fds[0].revents & Int16(POLLIN) != 0 {
                    while true {
                        let c = systemAccept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
                        if c < 0 { break }
                        _ = fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK)
                        if clients.count >= maxClients { close(clients.removeFirst().fd) }
                        clients.append(Client(fd: c, deadline: monotonic() + clientDeadline))
                    }
                }
            }
            for c in clients { close(c.fd) }
        }

        /// Writes a whole answer (a snapshot can be larger than the socket's buffer), giving a client
        /// that does not read at most a second.
        static func sendAll(_ bytes: [UInt8], to fd: Int32) {
            var sent = 0
            let deadline = monotonic() + 1
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if n > 0 {
                    sent += n
                    continue
                }
                guard n < 0, errno == EAGAIN || errno == EINTR else { return }
                let left = deadline - monotonic()
                guard left > 0 else { return }
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&pfd, 1, Int32(clamping: left * 1000, to: 0...Int32.max - 1) + 1)
            }
        }

        public func stop() {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
            unlink(path)
        }
    }
}
