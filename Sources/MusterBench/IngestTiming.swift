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
}
