import Foundation

/// Discovery to synced: a fresh kiosk (enrolled, empty replica) joins a lab whose kiosks hold
/// `deltas` deltas. Timed from just before `scripts/lab start` launches its musterd (so the figure
/// includes the start itself) until the last of those deltas is committed there (its commit trace),
/// which is the moment its digest equals theirs; the digests are compared afterwards to be sure.
enum DiscoveryBench {
    struct Result {
        let seconds: Double
        /// Until the fresh musterd answered on its control socket (part of `seconds`).
        let startSeconds: Double
        /// Until the fresh kiosk committed its first delta (finding a peer, the handshake and the
        /// first page; part of `seconds`): the rest is the transfer.
        let firstCommitSeconds: Double
        let deltas: Int
    }

    /// `fresh` must be stopped; `holder` holds every delta the fresh kiosk must get.
    static func run(lab: Lab, fresh: Int, holder: Int, others: [Int]) throws -> Result {
        let wanted = CommitTraceReader(path: lab.trace(holder))
        let state = "\(lab.directory)/k\(fresh)/state/replica.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: state + suffix) }
        try? FileManager.default.removeItem(atPath: lab.trace(fresh))
        let start = Stopwatch.monotonic()
        try lab.start(fresh)
        let started = Stopwatch.monotonic()
        try lab.waitForLines(wanted.count, kiosks: [fresh], timeout: 300)
        let got = CommitTraceReader(path: lab.trace(fresh))
        var synced: UInt64 = 0
        let first = got.entries.values.map(\.nanos).min() ?? start
        for (key, _) in wanted.entries {
            guard let entry = got[key.author, key.seq] else {
                throw BenchError(.wrongResult, "discovery: k\(fresh) lacks \(key.author.prefix(12)) #\(key.seq)")
            }
            synced = max(synced, entry.nanos)
        }
        guard try lab.digestsEqual([holder, fresh] + others, timeout: 15) else {
            throw BenchError(.wrongResult, "discovery: k\(fresh) holds every delta but its digest differs")
        }
        return Result(
            seconds: Double(synced - start) / 1e9,
            startSeconds: Double(started - start) / 1e9,
            firstCommitSeconds: Double(first > start ? first - start : 0) / 1e9,
            deltas: wanted.count
        )
    }
}
