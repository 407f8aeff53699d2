import Foundation
import DashWidgets

/// What `SubprocessTransport` and the `swiftdash-fetch` helper say to each other: one
/// JSON request on the helper's stdin, one JSON reply on its stdout. Secrets (keys in
/// headers and queries) travel only this way, never in argv, which `ps` shows.
public enum FetchWire {
    public static let version = 1

    public struct Request: Codable, Sendable, Hashable {
        public var version: Int
        public var request: HTTPRequestSpec
        public var connectTimeout: Double
        public var totalTimeout: Double
        public var maxBytes: Int

        public init(_ request: HTTPRequestSpec, options: HTTPOptions) {
            version = FetchWire.version
            self.request = request
            connectTimeout = options.connectTimeout
            totalTimeout = options.totalTimeout
            maxBytes = options.maxBytes
        }

        public var options: HTTPOptions {
            HTTPOptions(connectTimeout: connectTimeout, totalTimeout: totalTimeout, maxBytes: maxBytes)
        }
    }

    /// Either `response` (the body base64-encoded by JSONEncoder) or `error`.
    public struct Reply: Codable, Sendable, Hashable {
        public var response: HTTPResponseData?
        public var error: HTTPTransportError?

        public init(response: HTTPResponseData) {
            self.response = response
            error = nil
        }
        public init(error: HTTPTransportError) {
            response = nil
            self.error = error
        }
    }

    /// Bytes of a reply carrying a body of `maxBytes`: base64 plus room for the envelope.
    public static func replyLimit(maxBytes: Int) -> Int {
        (max(0, maxBytes) + 2) / 3 * 4 + 64 * 1024
    }
}

/// The default `HTTPTransport`: runs the `swiftdash-fetch` helper for each request, so the
/// home screen itself never loads FoundationNetworking, libcurl and the TLS libraries
/// (they would triple its memory). The helper enforces the timeouts, the size cap and
/// the redirect rule with URLSession; this side caps what it reads, kills the helper if
/// it overruns the total timeout, and turns a missing or broken helper into a clear error.
public struct SubprocessTransport: HTTPTransport {
    public static let helperName = "swiftdash-fetch"
    public static let environmentVariable = "SWIFTDASH_FETCH"

    /// The helper to run; nil finds it when a request is sent (see `defaultExecutable`).
    public var executable: URL?
    /// Seconds the helper gets past the total timeout to report the timeout itself.
    public var grace: TimeInterval

    public init(executable: URL? = nil, grace: TimeInterval = 1) {
        self.executable = executable
        self.grace = grace
    }

    /// `$SWIFTDASH_FETCH` if set, else `swiftdash-fetch` next to the running executable.
    public static func defaultExecutable(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment[environmentVariable], !path.isEmpty {
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        }
        return runningExecutable().deletingLastPathComponent().appendingPathComponent(helperName)
    }

    public static func runningExecutable() -> URL {
        let arg0 = CommandLine.arguments.first ?? ""
        // Started through $PATH, argv[0] has no slash: ask the kernel instead.
        if !arg0.contains("/"), let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: exe)
        }
        return URL(fileURLWithPath: arg0).resolvingSymlinksInPath()
    }

    public func send(_ request: HTTPRequestSpec, options: HTTPOptions) async throws -> HTTPResponseData {
        let exe = executable ?? Self.defaultExecutable()
        guard FileManager.default.isExecutableFile(atPath: exe.path) else {
            throw HTTPTransportError(
                .helper,
                message: "the network helper \(exe.path) is missing: build it with "
                    + "'swift build --product \(Self.helperName)' next to swiftdash, or set \(Self.environmentVariable)"
            )
        }
        let input = try JSONEncoder().encode(FetchWire.Request(request, options: options))
        let run = HelperRun()
        let limit = FetchWire.replyLimit(maxBytes: options.maxBytes)
        let deadline = options.totalTimeout + grace
        let output: Data = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (cont: CheckedContinuation<Data, Error>) in
                DispatchQueue.global().async {
                    do {
                        cont.resume(returning: try run.run(exe, input: input, limit: limit, deadline: deadline))
                    } catch {
                        cont.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            run.stop(.cancelled)
        }
        if Task.isCancelled { throw CancellationError() }
        let reply: FetchWire.Reply
        do {
            reply = try JSONDecoder().decode(FetchWire.Reply.self, from: output)
        } catch {
            throw HTTPTransportError(
                .helper, message: "the network helper \(Self.helperName) \(run.exitDescription): no readable answer")
        }
        if let e = reply.error { throw e }
        guard let r = reply.response else {
            throw HTTPTransportError(.helper, message: "the network helper \(Self.helperName) sent an empty answer")
        }
        if r.body.count > options.maxBytes { throw HTTPTransportError(.tooLarge) }
        return r
    }

    /// One helper process: started, fed, read with a cap, killed on timeout or cancel.
    final class HelperRun: @unchecked Sendable {
        private let lock = NSLock()
        private var process: Process?
        private var stopped: HTTPTransportError.Kind?
        private var status: Int32 = 0
        private var signalled = false

        /// Kills the helper (now, or as soon as it starts) and remembers why.
        func stop(_ why: HTTPTransportError.Kind) {
            lock.lock()
            if stopped == nil { stopped = why }
            let p = process
            lock.unlock()
            if let p, p.isRunning { p.terminate() }
        }

        var exitDescription: String {
            lock.lock()
            defer { lock.unlock() }
            return signalled ? "was killed by signal \(status)" : "exited with status \(status)"
        }

        func run(_ exe: URL, input: Data, limit: Int, deadline: TimeInterval) throws -> Data {
            let p = Process()
            p.executableURL = exe
            p.arguments = []
            let stdout = Pipe()
            // The request is small: it goes into a pipe before the helper starts, so a
            // helper that dies at once cannot make this write raise SIGPIPE.
            guard input.count < 60 * 1024 else { throw HTTPTransportError(.invalidRequest) }
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else {
                throw HTTPTransportError(.helper, message: "cannot start the network helper: no pipe (errno \(errno))")
            }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            let stdinRead = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
            let stdinWrite = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
            defer { try? stdinRead.close() }
            do {
                try stdinWrite.write(contentsOf: input)
                try stdinWrite.close()
            } catch {
                throw HTTPTransportError(.helper, message: "cannot pass the request to the network helper")
            }
            p.standardInput = stdinRead
            p.standardOutput = stdout
            p.standardError = FileHandle.nullDevice
            lock.lock()
            if let why = stopped {
                lock.unlock()
                throw HTTPTransportError(why)
            }
            do { try p.run() } catch {
                lock.unlock()
                throw HTTPTransportError(
                    .helper, message: "cannot start the network helper \(exe.path): \(error.localizedDescription)")
            }
            process = p
            lock.unlock()
            try? stdinRead.close()

            let timer = DispatchWorkItem { [weak self] in self?.stop(.timeout) }
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: timer)
            defer { timer.cancel() }

            var data = Data()
            let reader = stdout.fileHandleForReading
            var over = false
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                data.append(chunk)
                if data.count > limit {
                    over = true
                    stop(.tooLarge)
                    break
                }
            }
            try? reader.close()
            p.waitUntilExit()
            lock.lock()
            status = p.terminationStatus
            signalled = p.terminationReason == .uncaughtSignal
            let why = stopped
            lock.unlock()
            if over { throw HTTPTransportError(.tooLarge) }
            if let why { throw HTTPTransportError(why) }
            return data
        }
    }
}
