import MusterSim
import Synchronization
import Testing

/// A sweep on several threads must be the same sweep: each seed's run as it is alone, reported in
/// seed order.
@Suite struct SeedSweepTests {
    static func options(_ seed: UInt64) -> SimOptions {
        var options = SimOptions(kiosks: 4, checkIns: 30, seed: seed)
        options.faults = .all
        options.store = .memory
        return options
    }

    static func sweep(jobs: Int) throws -> [(seed: UInt64, hash: String)] {
        let reported = Mutex<[(seed: UInt64, hash: String)]>([])
        try SeedSweep.run(seeds: Array(11...16), jobs: jobs, options: options) { result in
            reported.withLock { $0.append((result.seed, result.eventLogHash)) }
        }
        return reported.withLock { $0 }
    }

    @Test func threeJobsReportEachSeedInOrderWithTheEventLogOfItsRunAlone() throws {
        let alone = try (11...16).map { seed in
            (seed: UInt64(seed), hash: try Simulation(options: Self.options(UInt64(seed))).run().eventLogHash)
        }
        let together = try Self.sweep(jobs: 3)
        #expect(together.map(\.seed) == alone.map(\.seed))
        #expect(together.map(\.hash) == alone.map(\.hash))
        // Different seeds, different runs: the comparison above compares something.
        #expect(Set(alone.map(\.hash)).count == alone.count)
        #expect(try Self.sweep(jobs: 1).map(\.hash) == alone.map(\.hash))
    }
}
