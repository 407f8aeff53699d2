import DashScheduler
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The scheduler benchmark:
//   swift build -c release --product dashbench && .build/release/dashbench [INSTANCES [ENTRIES [HOURS]]]
// Defaults: 10000 instances, 100 entries each, 24 virtual hours.
let args = CommandLine.arguments.dropFirst().compactMap(Double.init)
let instances = args.count > 0 ? Int(args[0]) : 10_000
let entries = args.count > 1 ? Int(args[1]) : 100
let hours = args.count > 2 ? args[2] : 24
let result = SchedulerBenchmark.run(instances: instances, entriesPerTimeline: entries, virtualHours: hours,
                                    wallClock: SystemClock())
print(result)
var usage = rusage()
#if os(Linux)
let who = RUSAGE_SELF.rawValue
#else
let who = RUSAGE_SELF
#endif
if getrusage(who, &usage) == 0 {
    #if os(Linux)
    let kb = Int(usage.ru_maxrss)
    #else
    let kb = Int(usage.ru_maxrss) / 1024
    #endif
    print("  peak RSS:      \(kb / 1024) MB")
}
