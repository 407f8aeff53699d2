// swiftdash-fetch: performs ONE HTTP request for swiftdash and exits; with `--serve`, it is the
// provider host that runs the built-in widgets' providers for the home screen.
//
// stdin:  one JSON `FetchWire.Request` (URL, headers, timeouts, size cap). Keys and tokens
//         come this way, never as arguments (argv is visible in `ps`).
// stdout: one JSON `FetchWire.Reply`: the status, the headers swiftdash reads and the
//         body (base64), or an error kind.
// The home screen runs this helper instead of linking FoundationNetworking, which loads
// libcurl and the TLS libraries and would triple its memory; this process lives only
// for the length of one request.
import Foundation
import DashBuiltinWidgets
import DashNetworking

// First, before anything else runs: the trampoline swiftdash starts its children through. Starting
// this program itself (the provider host), it goes on here with the target's arguments: no exec.
let arguments =
    CommandLine.arguments.count >= 2 && CommandLine.arguments[1] == "--exec-with-parent-death"
    ? execWithParentDeath(CommandLine.arguments.dropFirst(2)) : CommandLine.arguments

func reply(_ r: FetchWire.Reply) -> Never {
    let data = (try? JSONEncoder().encode(r)) ?? Data("{\"error\":{\"kind\":\"helper\"}}".utf8)
    FileHandle.standardOutput.write(data)
    exit(0)
}

if arguments.count >= 2 && arguments[1] == "--serve" {
    // The provider host: the home screen starts it on demand and it exits when idle
    // (`--idle SECONDS`, default 20).
    let args = arguments
    var idle: TimeInterval = 20
    if args.count == 4, args[2] == "--idle", let s = Double(args[3]), s > 0, s <= 3600 {
        idle = s
    } else if args.count != 2 {
        FileHandle.standardError.write(Data("usage: swiftdash-fetch --serve [--idle SECONDS]\n".utf8))
        exit(2)
    }
    ProviderHostServer(bundle: BuiltinWidgets.make(transport: URLSessionTransport()), idle: idle).serve()
    exit(0)
}

if arguments.count > 1 {
    let text = """
        usage: swiftdash-fetch < request.json
               swiftdash-fetch --serve [--idle SECONDS]
               swiftdash-fetch --exec-with-parent-death PID FD|- -- PATH [ARGS...]
        Performs one HTTP request for swiftdash: reads a JSON request on stdin, writes a JSON reply on stdout.
        With --serve it is the provider host: it runs the built-in widgets' providers for the home
        screen, reading requests as JSON lines on stdin (docs/extensions.md), and exits when idle.
        With --exec-with-parent-death it runs PATH so that it is killed when process PID dies.

        """
    FileHandle.standardError.write(Data(text.utf8))
    exit(arguments[1] == "--help" || arguments[1] == "-h" ? 0 : 2)
}

let input = FileHandle.standardInput.readDataToEndOfFile()
guard let request = try? JSONDecoder().decode(FetchWire.Request.self, from: input), request.version == FetchWire.version
else {
    reply(
        FetchWire.Reply(
            error: HTTPTransportError(
                .helper, message: "swiftdash-fetch got a request it cannot read (a different swiftdash version?)")))
}
do {
    let response = try await URLSessionTransport().send(request.request, options: request.options)
    reply(FetchWire.Reply(response: response))
} catch let e as HTTPTransportError {
    reply(FetchWire.Reply(error: e))
} catch {
    reply(FetchWire.Reply(error: HTTPTransportError(.other, code: (error as NSError).code)))
}
