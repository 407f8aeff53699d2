import DashScheduler

// The scheduler benchmark: `swift build -c release --product dashbench && .build/release/dashbench`
// Optional arguments: INSTANCES ENTRIES HOURS (defaults 10000 100 24).
let args = CommandLine.arguments.dropFirst().compactMap(Double.init)
let instances = args.count > 0 ? Int(args[0]) : 10_000
let entries = args.count > 1 ? Int(args[1]) : 100
let hours = args.count > 2 ? args[2] : 24
let result = SchedulerBenchmark.run(instances: instances, entriesPerTimeline: entries, virtualHours: hours,
                                    wallClock: SystemClock())
print(result)
