// libFuzzer entry point for DashApp's parsers of outside input: home.yaml, themes and the
// control socket (see docs/fuzzing.md). Built by Tests/fuzz/run.sh into the DashApp module
// with -D FUZZING, together with Tests/DashAppTests/AppFuzzHarness.swift; the target comes
// from SWIFTDASH_FUZZ_TARGET (home, theme, control).
import Foundation

let appFuzzTarget: AppFuzzTarget = {
    let name = ProcessInfo.processInfo.environment["SWIFTDASH_FUZZ_TARGET"] ?? "home"
    guard let t = AppFuzzTarget(rawValue: name) else {
        fatalError("unknown SWIFTDASH_FUZZ_TARGET \(name): use one of \(AppFuzzTarget.allCases.map(\.rawValue))")
    }
    return t
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func swiftdashAppFuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let problems = AppFuzzHarness.run(appFuzzTarget, Data(bytes: bytes, count: count))
    if !problems.isEmpty {
        // A broken invariant is a finding: crash so libFuzzer keeps the input.
        fatalError("\(appFuzzTarget.rawValue): \(problems.prefix(5))")
    }
    return 0
}
