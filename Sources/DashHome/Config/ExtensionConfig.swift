import Foundation
import Yams
import DashWidgets
#if canImport(Glibc)
    import Glibc
#endif

extension HomeConfig {
    /// The most extension paths home.yaml may list.
    public static let maxExtensions = 64

    /// `extensions:`: a list of executable paths.
    static func extensionList(_ node: Node, file: String) throws -> [String] {
        guard let seq = node.sequence else {
            throw ConfigFileError(
                file: file, line: node.mark?.line, message: "`extensions` must be a list of executable paths")
        }
        guard seq.count <= maxExtensions else {
            throw ConfigFileError(file: file, line: node.mark?.line, message: "at most \(maxExtensions) extensions")
        }
        return try seq.map { item in
            guard let path = item.string, !path.isEmpty, path.utf8.count <= 4096 else {
                throw ConfigFileError(
                    file: file, line: item.mark?.line, message: "an extension is a path to an executable")
            }
            return path
        }
    }

    /// The `extensions:` list of a home.yaml, read before the bundle exists (the file's widgets may
    /// be extensions). Any problem gives an empty list: the full parse reports it with its line.
    public static func extensionPaths(in url: URL) -> [String] {
        guard let data = try? ConfigFile.read(url, maxBytes: ConfigLimits.maxHomeBytes, what: "home.yaml"),
            let text = try? YAMLGuard.text(
                data, file: url.path, maxBytes: ConfigLimits.maxHomeBytes, what: "home.yaml"),
            let root = try? YAMLGuard.compose(text, file: url.path), let map = root.mapping,
            let list = map["extensions"]
        else { return [] }
        return (try? extensionList(list, file: url.path)) ?? []
    }
}
