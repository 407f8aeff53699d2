import Foundation
internal import DashWidgets
#if canImport(Glibc)
    import Glibc
#endif

/// One widget's fault costs one widget (issue 34.4, decision 60). A bundle of several widgets
/// answers swiftdash from this process, which runs no widget code: each request goes to the
/// process serving its kind (`KindProcess`, started on its first request), and a trap there —
/// `try!`, `fatalError`, a force unwrap, an index out of range, in a provider, a view or a
/// parameter's default — fails that request with the file, line and message, while the other
/// kinds' processes keep answering. The next request for the kind starts it again.
struct KindSupervisor {
    let server: ExtensionServer
    private let kinds: [String]
    private let children = Children()

    init(server: ExtensionServer) {
        self.server = server
        kinds = server.widgets.map(\.kind)
    }

    /// The kinds' processes, used from the one thread that reads requests.
    final class Children: @unchecked Sendable {
        var running: [String: KindProcess] = [:]
        /// The folder the kinds' crashes write their backtraces to, made on the first start.
        lazy var backtraces: URL = {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdash-backtraces-\(getpid())")
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }()
        func stopAll() {
            running.values.forEach { $0.stop() }
            running = [:]
            try? FileManager.default.removeItem(at: backtraces)
        }
    }

    /// Serves standard input until it ends, then stops the kinds' processes and exits.
    func run() -> Never {
        signal(SIGPIPE, SIG_IGN)
        let me = Wait.Unchecked(value: self)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                let answer = me.value.answer(line: line)
                FileHandle.standardOutput.write(Data((answer + "\n").utf8))
            }
            me.value.children.stopAll()
            exit(0)
        }
        thread.stackSize = 1 << 20
        thread.start()
        dispatchMain()
    }

    /// The answer line to one request line.
    func answer(line: String) -> String {
        guard let request = try? JSONValue.parse(Data(line.utf8)), let o = request.object else {
            return server.answer(line: line)
        }
        let method = o["method"]?.string ?? ""
        if method == "describe" { return describe(o) }
        // A Live Activity's views run in a process of their own too: a trap in them costs that
        // activity's drawing, never the bundle's widgets.
        if method == "activity" {
            guard let kind = o["params"]?.object?["kind"]?.string, server.activities.contains(where: { $0.kind == kind })
            else { return server.answer(line: line) }
            switch ask(Self.activityProcess(kind), line) {
            case .success(let answer): return answer
            case .failure(let crash):
                return server.encode(["id": o["id"] ?? .null, "error": .string(crash.line)])
            }
        }
        // A request for no kind of this bundle, or no kind at all, is refused here as the server
        // refuses it; it runs no widget code.
        guard let kind = o["params"]?.object?["kind"]?.string, kinds.contains(kind) else {
            return server.answer(line: line)
        }
        switch ask(kind, line) {
        case .success(let answer): return answer
        case .failure(let crash):
            let source = server.widgets.first { $0.kind == kind }?.source ?? ""
            let where_ = source.isEmpty ? "" : " (the widget is configured at \(source))"
            return server.encode(["id": o["id"] ?? .null, "error": .string(crash.line + where_)])
        }
    }

    struct Crash: Error { let line: String }

    /// The name of the process that draws a Live Activity kind's views (`SWIFTDASH_WIDGET_KIND`):
    /// apart from the widgets' kinds, whatever their names.
    static func activityProcess(_ kind: String) -> String { "activity:" + kind }

    /// The kind's answer to a request line, starting its process if it is not running.
    func ask(_ kind: String, _ line: String) -> Result<String, Crash> {
        let process: KindProcess
        if let running = children.running[kind] {
            process = running
        } else {
            do { process = try KindProcess(kind: kind, backtraces: children.backtraces) } catch {
                return .failure(Crash(line: "\(error)"))
            }
            children.running[kind] = process
        }
        if let answer = process.exchange(line) { return .success(answer) }
        children.running[kind] = nil
        let crash = process.ended()
        // Said once in the log too, with the kind: the tile shows it only while it is on screen.
        FileHandle.standardError.write(Data("widget \(kind): \(crash)\n".utf8))
        return .failure(Crash(line: crash))
    }

    /// Every kind's description, each from its own process (describing a widget makes its
    /// configuration intent, whose parameters' defaults are the widget's code). A kind whose
    /// process crashed is described by its names and families alone; its requests say why.
    func describe(_ asked: [String: JSONValue]) -> String {
        var described: [JSONValue] = []
        for w in server.widgets {
            let request = server.encode(["id": .number(1), "method": .string("describe"), "params": .object([:])])
            let wasRunning = children.running[w.kind] != nil
            let own = try? ask(w.kind, request).get()
            // A kind started only to describe it stops again: the tiles start the kinds they show.
            if !wasRunning, let started = children.running.removeValue(forKey: w.kind) { started.stop() }
            let theirs = own.flatMap { try? JSONValue.parse(Data($0.utf8)) }?["result"]?["widgets"]?.array?
                .first { $0["kind"]?.string == w.kind }
            described.append(theirs ?? server.describe(w, parameters: false))
        }
        // A Live Activity is described by its kind alone, which runs none of its code.
        return server.encode([
            "id": asked["id"] ?? .null,
            "result": .object([
                "protocol": .number(Double(ExtensionProtocol.version)), "widgets": .array(described),
                "activities": .array(server.activities.map { .object(["kind": .string($0.kind)]) }),
            ]),
        ])
    }
}
