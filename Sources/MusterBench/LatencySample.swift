/// Per-operation latencies in milliseconds, summarized as percentiles (nearest rank).
struct LatencySample {
    private(set) var millis: [Double] = []

    init() { millis.reserveCapacity(4_096) }

    mutating func record(nanoseconds: UInt64) { millis.append(Double(nanoseconds) / 1e6) }

    /// Times one call of `body` and records it.
    mutating func measure<T>(_ body: () throws -> T) rethrows -> T {
        let start = Stopwatch.now()
        let result = try body()
        record(nanoseconds: Stopwatch.now() - start)
        return result
    }

    func percentile(_ p: Double) -> Double {
        guard !millis.isEmpty else { return 0 }
        let sorted = millis.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var p50: Double { percentile(50) }
    var p99: Double { percentile(99) }
}
