import Foundation
import DashWidgets
import DashApp
import DashHome
import DashRuntime
#if canImport(Glibc)
    import Glibc
#endif

/// A folder of shell-script extensions for tests: made empty in the temporary directory, each
/// script written executable, and removed with `remove()` (a test's tearDown).
public final class ShellExtensionFolder: @unchecked Sendable {
    public let url: URL

    /// A new empty folder named `prefix-UUID`.
    public init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    public func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` to the file `name` here, executable; returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// The text of a shell extension offering one small widget `kind` (named `displayName`, with
    /// `description`) whose timeline is one entry showing `text` (nil: it answers no timeline).
    public static func script(
        kind: String, displayName: String, description: String = "", text: String? = nil
    ) -> String {
        let describe =
            #"{"protocol":1,"widgets":[{"kind":"\#(kind)","displayName":"\#(displayName)","#
            + #""description":"\#(description)","families":["small"]}]}"#
        let timeline = text.map { t in
            #"  *'"method":"timeline"'*) echo '{"id":'$id',"result":{"entries":[{"date":0,"summary":"\#(t)","#
                + #""view":{"text":"\#(t)"}}],"policy":"never"}}' ;;"# + "\n"
        }
        return "#!/bin/sh\nwhile IFS= read -r l; do\n"
            + #"id=${l#*\"id\":}; id=${id%%[,\}]*}"# + "\ncase $l in\n"
            + #"  *'"method":"describe"'*) echo '{"id":'$id',"result":\#(describe)}' ;;"# + "\n"
            + (timeline ?? "")
            + #"  *) echo '{"id":'$id',"error":"no"}' ;;"# + "\nesac\ndone\n"
    }

    /// A shell extension `name` of kind `kind` (the name unless given) that describes itself (with
    /// `timeout` seconds per request), then runs `onRequest` for every later request in this folder
    /// (`$l` is the request line, `$id` its id); described, and made a widget.
    public func extensionWidget(
        _ name: String, kind: String? = nil, timeout: Int, environment: [String: String],
        limits: ExtensionLimits = ExtensionLimits(), log: @escaping @Sendable (String) -> Void = { _ in },
        _ onRequest: String
    ) throws -> (ExtensionProcess, Widget) {
        let path = try write(
            name,
            """
            #!/bin/sh
            cd \(url.path)
            while IFS= read -r l; do
            id=${l#*\\"id\\":}; id=${id%%[,\\}]*}
            case $l in *'"method":"describe"'*)
                echo '{"id":'$id',"result":{"protocol":1,"widgets":[{"kind":"\(kind ?? name)","timeout":\(timeout)}]}}'
                continue ;;
            esac
            \(onRequest)
            done
            """)
        let process = ExtensionProcess(path: path, environment: environment, limits: limits, log: log)
        let d = try ExtensionWidgetDescription.parse(process.request("describe", timeout: 5))[0]
        return (process, Extensions.widget(d, process: process, placeholder: nil))
    }
}
