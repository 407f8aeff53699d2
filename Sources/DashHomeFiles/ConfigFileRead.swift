import Foundation
import DashWidgets
import DashHome

/// Reading the files the user owns (home.yaml, themes).
extension ConfigFile {
    /// The bytes of a regular file, refused past `maxBytes` without reading the rest.
    package static func read(_ url: URL, maxBytes: Int, what: String) throws -> Data {
        let file = url.path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: file)
        } catch {
            throw ConfigFileError(file: file, line: nil, message: "cannot read the file: \(reason(error))")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw ConfigFileError(file: file, line: nil, message: "not a regular file")
        }
        if let size = attributes[.size] as? Int, size > maxBytes {
            throw ConfigFileError(
                file: file, line: nil,
                message: YAMLGuard.sizeRefusal(size, most: maxBytes, what: what))
        }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
            if data.count > maxBytes {
                let most = YAMLGuard.sizeText(maxBytes)
                throw ConfigFileError(
                    file: file, line: nil,
                    message: "the file is larger than \(most); \(what) may be at most \(most)")
            }
            return data
        } catch let e as ConfigFileError {
            throw e
        } catch {
            throw ConfigFileError(file: file, line: nil, message: "cannot read the file: \(reason(error))")
        }
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        switch ns.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError: return "permission denied"
        default: return YAMLGuard.quoted(ns.localizedDescription, max: 120)
        }
    }
}

extension HomeConfig {
    /// Reads `home.yaml` from disk within `ConfigLimits` (size, UTF-8, aliases, nesting,
    /// tiles). Every problem is a `ConfigFileError` naming the file and, where there is
    /// one, the line.
    public static func load(contentsOf url: URL, bundle: WidgetBundle) throws -> HomeConfig {
        let data = try ConfigFile.read(url, maxBytes: ConfigLimits.maxHomeBytes, what: "home.yaml")
        return try parse(data: data, file: url.path, bundle: bundle)
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
