import Foundation
import Logging
import DashWidgets
import DashApp
import DashScheduler

/// The timeline cache under $XDG_CACHE_HOME/swiftdash, as the runtime uses it: loaded
/// once at start (corrupt files are skipped with a log line), records saved as they change.
///
/// Secrets (API keys, tokens) never reach the cache files: each is stored as a fingerprint,
/// and on load a record whose fingerprint matches the instance's current secret gets the
/// real value back, so the scheduler still recognises its configuration.
func cachePersistence(paths: AppPaths, logger: Logger, home: HomeConfig) -> RuntimePersistence {
    let store = TimelineCacheStore(directory: paths.cache)
    return RuntimePersistence(
        load: { SecretFingerprint.reveal(store.load(log: { logger.warning("cache: \($0)") }), home: home) },
        save: { records in
            for var r in records {
                if let schema = bundle[r.kind]?.schema { r.configuration = SecretFingerprint.hide(r.configuration, schema: schema) }
                do { try store.save(r) } catch { logger.warning("cache: cannot save \(r.id): \(error)") }
            }
        })
}

enum SecretFingerprint {
    /// FNV-1a 64: stable across runs (Swift's Hasher is seeded per process). Keys are long
    /// random strings, so the fingerprint does not give them away.
    static func fingerprint(_ s: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h ^= UInt64(b); h = h &* 0x0000_0100_0000_01b3 }
        return "fingerprint:" + String(h, radix: 16)
    }

    static func hide(_ config: WidgetConfig, schema: ConfigurationSchema) -> WidgetConfig {
        var out = config
        for p in schema.parameters where p.isSecret {
            if let v = config[p.key], !v.description.isEmpty { out[p.key] = .string(fingerprint(v.description)) }
        }
        return out
    }

    /// The snapshot with each record's fingerprinted secrets replaced by the home
    /// screen's current values where they still match.
    static func reveal(_ snapshot: SchedulerSnapshot, home: HomeConfig) -> SchedulerSnapshot {
        var out = snapshot
        let instances = Dictionary(home.allInstances.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, record) in snapshot.records {
            guard let inst = instances[id], let schema = bundle[record.kind]?.schema else { continue }
            out.records[id]?.configuration = reveal(record.configuration, using: inst.config, schema: schema)
        }
        return out
    }

    static func reveal(_ stored: WidgetConfig, using current: WidgetConfig, schema: ConfigurationSchema) -> WidgetConfig {
        var out = stored
        for p in schema.parameters where p.isSecret {
            if let v = current[p.key], stored[p.key] == .string(fingerprint(v.description)) { out[p.key] = v }
        }
        return out
    }
}
