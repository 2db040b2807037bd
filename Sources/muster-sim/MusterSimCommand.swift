import ArgumentParser
import Foundation
import MusterSim
import Synchronization

/// `muster-sim`: N kiosks through the sync protocol on a simulated network, in virtual time, from a seed.
@main
struct MusterSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "muster-sim",
        abstract: "Run kiosks through the sync protocol on a simulated network, deterministically from a seed.",
        discussion: """
            Prints one summary line per run (or one JSON object with --json) and exits non-zero when \
            a run does not converge or the checker finds a lost check-in, a phantom delta or unequal \
            digests. --seeds N runs seeds S, S+1, … S+N−1 and prints a sweep summary.
            """
    )

    @Option(help: "Number of kiosks.") var kiosks = 10
    @Option(name: .customLong("checkins"), help: "Check-ins in the burst, spread over the kiosks.") var checkIns = 200
    @Option(help: "The seed (the same seed replays the same run).") var seed: UInt64 = 1
    @Option(help: "Run this many seeds, from --seed on.") var seeds = 1
    @Option(help: "Check-ins per second across the venue.") var rate = 500.0
    @Option(help: "Probability that a frame is lost.") var loss = 0.0
    @Option(help: "Probability that a frame is delivered twice.") var duplication = 0.0
    @Option(help: "Probability that a frame is delayed past the next ones.") var reordering = 0.0
    @Flag(help: "Split the kiosks in two during the burst, heal after 5–15 s.") var partition = false
    @Flag(help: "Crash-restart 10% of the kiosks during the burst.") var crash = false
    @Flag(help: "Make 10% of the kiosks 8x slower.") var slow = false
    @Flag(help: "Skew every kiosk's clocks (wall ±60 s, rate ±0.2%).") var skew = false
    @Flag(help: "Every fault: 1% loss, 1% duplication, 5% reordering, partition, crash, slow, skew.") var allFaults =
        false
    @Option(help: "Where kiosks store deltas: sqlite (the real Replica) or memory (default above 300 kiosks).")
    var store: String?
    @Option(help: "Give up this many seconds of virtual time after the last fault healed.") var patience = 120
    @Option(
        help: "Print BENCHMARKS.md's table instead: the four scenarios at each of these sizes (e.g. 10,50,200,1000)."
    )
    var table: String?
    @Option(help: "Full mesh up to this many kiosks, HyParView/Plumtree beyond (default: the core's).")
    var fullMesh: Int?
    @Option(
        help:
            "Make this many kiosks liars: they fork their chain, stamp far-future times and rewrite attendees (sqlite store)."
    )
    var byzantine = 0
    @Flag(help: "The organizer key signs on both sides of the partition (needs the partition fault).")
    var organizerFork = false
    @Flag(help: "The organizer revokes a kiosk on the far side of the partition (needs the partition fault).")
    var revoke = false
    @Flag(
        help:
            "Judge every check-in at its door (--entries once), two doors per attendee, and check every kiosk's conflicts report (sqlite store)."
    )
    var doors = false
    @Option(help: "Multiply every kiosk's processing and storing costs (kiosks sharing few cores, like the lab's).")
    var cpuScale = 1
    @Option(help: "Start the kiosks this many milliseconds apart (the doors open 1 s after the last).")
    var staggerMs = 0
    @Flag(help: "One JSON object per run instead of a line.") var json = false
    @Flag(help: "With --seeds, print only failing runs and the summary.") var quiet = false
    @Option(help: "With --seeds, run this many seeds at once (default: one per core); each run is the same.")
    var jobs: Int?

    func validate() throws {
        guard kiosks >= 2 else { throw ValidationError("--kiosks must be at least 2") }
        guard checkIns >= 1 else { throw ValidationError("--checkins must be at least 1") }
        guard seeds >= 1 else { throw ValidationError("--seeds must be at least 1") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        guard cpuScale >= 1 else { throw ValidationError("--cpu-scale must be at least 1") }
        guard staggerMs >= 0 else { throw ValidationError("--stagger-ms cannot be negative") }
        if let fullMesh, let problem = SimOptions.fullMeshProblem(fullMesh) {
            throw ValidationError("--full-mesh \(problem)")
        }
        for (name, p) in [("loss", loss), ("duplication", duplication), ("reordering", reordering)]
        where !(0...1).contains(p) {
            throw ValidationError("--\(name) is a probability between 0 and 1")
        }
        if let store, SimOptions.StoreKind(rawValue: store) == nil {
            throw ValidationError("--store is sqlite or memory")
        }
    }

    func run() throws {
        if let table {
            try printTable(sizes: table.split(separator: ",").compactMap { Int($0) })
            return
        }
        var faults = allFaults ? FaultOptions.all : FaultOptions()
        if loss > 0 { faults.loss = loss }
        if duplication > 0 { faults.duplication = duplication }
        if reordering > 0 { faults.reordering = reordering }
        faults.partition = faults.partition || partition
        faults.crash = faults.crash || crash
        faults.slow = faults.slow || slow
        faults.skew = faults.skew || skew
        let settings = self
        let faultOptions = faults
        let store = store.flatMap(SimOptions.StoreKind.init(rawValue:)) ?? SimOptions.defaultStore(kiosks: kiosks)
        let summary = Mutex(SweepSummary())
        let started = ContinuousClock.now
        try SeedSweep.run(
            seeds: (0..<UInt64(seeds)).map { seed &+ $0 },
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            options: { seed in
                var options = SimOptions(kiosks: settings.kiosks, checkIns: settings.checkIns, seed: seed)
                options.rate = settings.rate
                options.fullMeshThreshold = settings.fullMesh
                options.byzantine = settings.byzantine
                options.organizerFork = settings.organizerFork
                options.revoke = settings.revoke
                options.doors = settings.doors
                options.cpuScale = settings.cpuScale
                options.stagger = .milliseconds(settings.staggerMs)
                options.faults = faultOptions
                options.patience = .seconds(settings.patience)
                options.store = store
                return options
            },
            report: { result in
                summary.withLock { $0.add(result) }
                if !settings.quiet || !result.passed { print(settings.json ? result.json : result.line) }
                if !result.passed, !settings.quiet {
                    for problem in result.check.problems { print("  \(problem)") }
                }
            }
        )
        var finished = summary.withLock { $0 }
        finished.elapsed = ContinuousClock.now - started
        if seeds > 1 { print(finished.line) }
        if finished.passed != finished.runs { throw ExitCode.failure }
    }

    /// The four scenarios at each size, one markdown row each (the line of each run on stderr-free stdout after it).
    func printTable(sizes: [Int]) throws {
        print(SimScenario.header)
        var lines: [String] = []
        var failed = false
        for size in sizes {
            for scenario in SimScenario.allCases {
                var options = SimOptions(kiosks: size, checkIns: checkIns, seed: seed)
                options.rate = rate
                options.faults = scenario.faults
                options.patience = .seconds(patience)
                options.store =
                    store.flatMap(SimOptions.StoreKind.init(rawValue:)) ?? SimOptions.defaultStore(kiosks: size)
                let result = try Simulation(options: options).run()
                print(SimScenario.row(scenario, result))
                lines.append(result.line)
                failed = failed || !result.passed
            }
        }
        print("")
        for line in lines { print(line) }
        if failed { throw ExitCode.failure }
    }
}
