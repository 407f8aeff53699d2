import Foundation
import Logging
import DashApp
import DashScheduler

/// The timeline cache under $XDG_CACHE_HOME/swiftdash, as the runtime uses it.
func cachePersistence(paths: AppPaths, logger: Logger) -> RuntimePersistence {
    .none
}
