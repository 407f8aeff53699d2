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
