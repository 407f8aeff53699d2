// swiftdash-fetch: performs ONE HTTP request for swiftdash and exits; with `--serve`, it is the
// provider host that runs the built-in widgets' providers for the home screen.
//
// stdin:  one JSON `FetchWire.Request` (URL, headers, timeouts, size cap). Keys and tokens
//         come this way, never as arguments (argv is visible in `ps`).
// stdout: one JSON `FetchWire.Reply`: the status, the headers swiftdash reads and the
//         body (base64), or an error kind.
//
// One program with swiftdash (decision 62): the package installs swiftdash-fetch as a link to
// swiftdash, which runs `FetchHelper.main` when it is started by that name; the swiftdash-fetch
// product of the build runs the same code. Networking and TLS still stay out of the home screen's
// process: libcurl is opened only by the first request (CCurlLoader), which only this role makes.
import Foundation
import DashBuiltinWidgets

public enum FetchHelper {
    /// The name the helper is started by (`SubprocessTransport.helperName`).
    public static let name = SubprocessTransport.helperName

    /// Whether `argv0` (a path or a name) starts the helper rather than the home screen.
    public static func isInvoked(as argv0: String?) -> Bool {
        guard let argv0 else { return false }
        return argv0.split(separator: "/").last.map(String.init) == name
    }

    /// The helper's whole run, from the process's own arguments; never returns. On the main actor,
    /// as top-level code is: the provider host's loop blocks this thread, not one of the pool's.
    @MainActor
    public static func main(_ commandLine: [String]) async -> Never {
        // First, before anything else runs: the trampoline swiftdash starts its children through.
        // Starting this program itself (the provider host), it goes on here with the target's
        // arguments: no exec.
        let arguments =
            commandLine.count >= 2 && commandLine[1] == "--exec-with-parent-death"
            ? execWithParentDeath(commandLine.dropFirst(2)) : commandLine

        if arguments.count >= 2 && arguments[1] == "--serve" {
            // The provider host: the home screen starts it on demand and it exits when idle
            // (`--idle SECONDS`, default 20).
            var idle: TimeInterval = 20
            if arguments.count == 4, arguments[2] == "--idle", let s = Double(arguments[3]), s > 0, s <= 3600 {
                idle = s
            } else if arguments.count != 2 {
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
        guard let request = try? JSONDecoder().decode(FetchWire.Request.self, from: input),
            request.version == FetchWire.version
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
    }

    private static func reply(_ r: FetchWire.Reply) -> Never {
        let data = (try? JSONEncoder().encode(r)) ?? Data("{\"error\":{\"kind\":\"helper\"}}".utf8)
        FileHandle.standardOutput.write(data)
        exit(0)
    }
}
