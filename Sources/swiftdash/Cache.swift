import Foundation
import Logging
import DashApp
import DashScheduler

/// The timeline cache under $XDG_CACHE_HOME/swiftdash, as the runtime uses it: loaded
/// once at start (corrupt files are skipped with a log line), records saved as they change.
func cachePersistence(paths: AppPaths, logger: Logger) -> RuntimePersistence {
    let store = TimelineCacheStore(directory: paths.cache)
    return RuntimePersistence(
        load: { store.load(log: { logger.warning("cache: \($0)") }) },
        save: { records in
            for r in records {
                do { try store.save(r) } catch { logger.warning("cache: cannot save \(r.id): \(error)") }
            }
        })
}
