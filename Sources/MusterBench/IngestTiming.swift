import MusterCore
import MusterRules
import MusterStore

/// How long storing a log took, on the wall clock and in the process's CPU (all threads): the CPU is
/// a figure a busy machine stretches less than the wall clock, for comparing runs taken under load.
struct IngestTiming {
    /// Deltas the timed work stored.
    let deltas: Int
    let seconds: Double
    let cpuSeconds: Double
    var rate: Double { Double(deltas) / seconds }
    var cpuMicrosecondsPerDelta: Double { cpuSeconds * 1e6 / Double(deltas) }

    /// Times `body`, which returns how many deltas it stored.
    static func measure(_ body: () throws -> Int) rethrows -> IngestTiming {
        let cpuBefore = Stopwatch.processCPUSeconds()
        let (deltas, seconds) = try Stopwatch.time(body)
        return IngestTiming(deltas: deltas, seconds: seconds, cpuSeconds: Stopwatch.processCPUSeconds() - cpuBefore)
    }

    /// Times storing `groups` into `replica`, one ingest call each, and fails the benchmark unless
    /// every one of the `expected` deltas was stored: a refused delta would make the figure a lie.
    static func ingest(
        _ groups: [[SignedDelta]],
        into replica: Replica,
        nowMillis: UInt64,
        durable: Bool = true,
        expected: Int,
        what: String
    ) throws -> IngestTiming {
        let timing = try measure { () throws -> Int in
            var applied = 0
            for group in groups {
                let report = try replica.ingest(
                    group,
                    nowMillis: nowMillis,
                    clockBoundMillis: BenchVenue.clockBoundMillis,
                    durable: durable
                )
                if let refused = report.rejected.first {
                    throw BenchError(.wrongResult, "\(what) refused a delta: \(refused)")
                }
                applied += report.applied.count
            }
            return applied
        }
        guard timing.deltas == expected else {
            throw BenchError(.wrongResult, "\(what) applied \(timing.deltas) of \(expected)")
        }
        return timing
    }
}
