import DashWidgets
import DashScheduler

/// Secrets (API keys, tokens) never reach the cache files: each is stored as a fingerprint,
/// and on load a record whose fingerprint matches the instance's current secret gets the
/// real value back, so the scheduler still recognises its configuration.
public enum SecretFingerprint {
    /// FNV-1a 64: stable across runs (Swift's Hasher is seeded per process). Keys are long
    /// random strings, so the fingerprint does not give them away.
    public static func fingerprint(_ s: String) -> String {
        "fingerprint:" + String(fnv1a(s), radix: 16)
    }

    /// FNV-1a, 64 bits, of the UTF-8 bytes.
    static func fnv1a(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// `config` with every secret parameter replaced by its fingerprint.
    public static func hide(_ config: WidgetConfig, schema: ConfigurationSchema) -> WidgetConfig {
        var out = config
        for p in schema.parameters where p.isSecret {
            if let v = config[p.key], !v.description.isEmpty { out[p.key] = .string(fingerprint(v.description)) }
        }
        return out
    }

    /// The snapshot with each record's fingerprinted secrets replaced by the home screen's
    /// current values where they still match.
    public static func reveal(_ snapshot: SchedulerSnapshot, home: HomeConfig, bundle: WidgetBundle)
        -> SchedulerSnapshot
    {
        var out = snapshot
        let instances = Dictionary(home.allInstances.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, record) in snapshot.records {
            guard let inst = instances[id], let schema = bundle[record.kind]?.schema else { continue }
            out.records[id]?.configuration = reveal(record.configuration, using: inst.config, schema: schema)
        }
        return out
    }

    public static func reveal(_ stored: WidgetConfig, using current: WidgetConfig, schema: ConfigurationSchema)
        -> WidgetConfig
    {
        var out = stored
        for p in schema.parameters where p.isSecret {
            if let v = current[p.key], stored[p.key] == .string(fingerprint(v.description)) { out[p.key] = v }
        }
        return out
    }
}
