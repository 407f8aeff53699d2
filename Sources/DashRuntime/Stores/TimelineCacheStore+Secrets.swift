import DashWidgets
import DashScheduler
import DashApp
import DashHome

extension TimelineCacheStore {
    /// Saves records with their secrets fingerprinted and their pending entries encoded (this runs
    /// on the cache writer's thread); returns a problem per record that failed.
    public func save(_ records: [InstanceRecord], bundle: WidgetBundle) -> [String] {
        var problems: [String] = []
        for pending in records {
            let (encoded, warning) = pending.withEntriesEncoded()
            if let warning { problems.append(warning) }
            var r = encoded
            if let schema = bundle[r.kind]?.schema {
                r.configuration = SecretFingerprint.hide(r.configuration, schema: schema)
            }
            do { try save(r) } catch { problems.append("cache: cannot save \(r.id): \(error)") }
        }
        return problems
    }

    /// The cached snapshot, secrets restored for `home`'s instances.
    public func load(home: HomeConfig, bundle: WidgetBundle, log: (String) -> Void) -> SchedulerSnapshot {
        SecretFingerprint.reveal(load(log: log), home: home, bundle: bundle)
    }
}
