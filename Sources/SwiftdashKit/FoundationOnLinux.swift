import Foundation

// What Foundation has on Apple's systems and widgets use, missing from Linux's Foundation. Key-value
// coding (`setValue(_:forKey:)`, `value(forKey:)`) exists there for every NSObject; on Linux
// UserDefaults answers them as `set(_:forKey:)` and `object(forKey:)` do.

#if !canImport(Darwin)
    extension UserDefaults {
        public func setValue(_ value: Any?, forKey key: String) { set(value, forKey: key) }
        public func value(forKey key: String) -> Any? { object(forKey: key) }
    }
#endif

#if !canImport(Darwin)
    extension FileManager {
        /// An app group's shared folder. swiftdash has no app groups: each group is a folder in the
        /// extension's state folder (`SWIFTDASH_STATE`, kept between runs), made on first use.
        public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
            let name = groupIdentifier.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
            let url = WidgetState.directory.appendingPathComponent("AppGroups")
                .appendingPathComponent(String(name.prefix(100)))
            do {
                try createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                return nil
            }
            return url
        }
    }
#endif
