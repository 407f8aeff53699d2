import Foundation
import DashWidgets
import DashApp
import DashRuntime
import DashBuiltinWidgets
#if canImport(Glibc)
    import Glibc
#endif

/// One out-of-process path for every command that runs providers: the home screen, `render --live`,
/// `preview --live` and `timeline` ask the provider host (`swiftdash-fetch --serve`) for the
/// built-in widgets' timelines, so every answer crosses the same wire and is decoded once
/// (`ProviderWire`). Without a host beside the binary the providers run in this process, as before.
enum ProviderHosting {
    /// A provider host for this process, or nil (with the reason logged) when there is none.
    static func start(log: @escaping @Sendable (String) -> Void) -> ProviderHost? {
        let hostPath = SubprocessTransport.defaultExecutable(environment: processEnvironment).path
        guard access(hostPath, X_OK) == 0 else {
            log("no provider host at \(hostPath): built-in widgets load in this process")
            return nil
        }
        let h = ProviderHost(path: hostPath, environment: processEnvironment, log: log)
        // How long an idle host stays (seconds; tests shorten it).
        if let idle = processEnvironment["SWIFTDASH_HOST_IDLE"], let s = Double(idle), s > 0, s <= 3600 {
            h.arguments = ["--serve", "--idle", idle]
        }
        return h
    }

    /// `environment` with the built-in widgets' providers in `host`.
    static func hosted(_ environment: AppEnvironment, by host: ProviderHost?) -> AppEnvironment {
        guard let host else { return environment }
        var e = environment
        e.bundle = host.bundle(environment.bundle, kinds: Set(BuiltinWidgets.bundle.kinds))
        return e
    }
}
