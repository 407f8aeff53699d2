// libFuzzer entry point for the parsers of outside input (see docs/fuzzing.md).
// Built by Tests/fuzz/run.sh into the DashBuiltinWidgets module with -D FUZZING; the
// target comes from SWIFTDASH_FUZZ_TARGET (feeds, newsapi, coingecko, coinmarketcap, commits, ics,
// todo). DashApp's targets (home, theme, control) are in AppFuzzMain.swift.
import Foundation

let fuzzTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["SWIFTDASH_FUZZ_TARGET"] ?? "feeds"
    guard let t = FuzzTarget(rawValue: name) else {
        fatalError("unknown SWIFTDASH_FUZZ_TARGET \(name): use one of \(FuzzTarget.allCases.map(\.rawValue))")
    }
    return t
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func swiftdashFuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let problems = FuzzHarness.runBlocking(fuzzTarget, data)
    if !problems.isEmpty {
        // A broken invariant is a finding: crash so libFuzzer keeps the input.
        fatalError("\(fuzzTarget.rawValue): \(problems.prefix(5))")
    }
    return 0
}
