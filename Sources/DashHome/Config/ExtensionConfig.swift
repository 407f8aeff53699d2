import Foundation
import Yams
import DashWidgets

extension HomeConfig {
    /// The most extension paths home.yaml may list.
    public static let maxExtensions = 64

    /// `extensions:`: a list of executable paths.
    package static func extensionList(_ node: Node, file: String) throws -> [String] {
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

}
