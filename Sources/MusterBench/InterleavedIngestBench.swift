import MusterCore
import MusterRules
import MusterStore

/// One kiosk of the burst as its replica sees it while the doors are still taking check-ins: every
/// peer's check-ins arrive one at a time, so a group commit holds one delta from each of several
/// authors, and each delta is a run of its own. The chain check, the author's roster, head and clock
/// lookups, the signature and the head's move are paid per delta here, where catch-up pays them per
/// page; this is the cost that sets how far behind a kiosk is at the burst's last acknowledgement.
///
/// Stored with `durable: false`, as the daemon stores peers' deltas.
enum InterleavedIngestBench {
    /// Peers feeding the kiosk (the burst's 50 kiosks, less the one storing).
    static let authors = 49
    /// Deltas (one per author) per group commit: what a kiosk of the burst stored per transaction
    /// while check-ins were still being taken (BENCHMARKS.md, "How the figures are measured":
    /// interleaved ingest).
    static let groupSize = 8
    /// Attendees imported before the timed part, so every check-in finds its attendee.
    static let attendees = 2_000

    /// A replica with the attendees imported, and the check-ins still to store, grouped as they arrive.
    struct Prepared {
        let replica: Replica
        let groups: [[SignedDelta]]
        let nowMillis: UInt64
    }

    /// - Parameter runLength: consecutive deltas of one author per group (1 during the burst's
    ///   acknowledgements; more where a kiosk batches what it has waiting), to show what longer runs
    ///   would save.
    static func run(checkIns: Int, runLength: Int = 1, directory: String) throws -> IngestTiming {
        let prepared = try prepare(
            checkIns: checkIns,
            runLength: runLength,
            venue: BenchVenue(kiosks: authors),
            path: directory + "/interleaved-\(runLength).sqlite"
        )
        defer { try? prepared.replica.close() }
        return try IngestTiming.ingest(
            prepared.groups,
            into: prepared.replica,
            nowMillis: prepared.nowMillis,
            durable: false,
            expected: checkIns,
            what: "interleaved ingest"
        )
    }

    /// Everything before the timed part: the signed logs, the replica at `path` with `venue`'s
    /// kiosks enrolled and the attendees imported. Also the instruction-count guard's workload
    /// (``CountedWorkload``), with a seeded venue. The caller closes the replica.
    static func prepare(checkIns: Int, runLength: Int, venue: BenchVenue, path: String) throws -> Prepared {
        let importLog = try venue.importLog(attendees: attendees)
        // `checkInLogs` deals check-ins to the kiosks in turn: merged back in that order, consecutive
        // deltas are from different authors, each the next of its chain.
        let logs = try venue.checkInLogs(count: checkIns, attendees: attendees)
        var arrivals: [SignedDelta] = []
        arrivals.reserveCapacity(checkIns)
        for round in stride(from: 0, to: logs.map(\.count).max() ?? 0, by: runLength) {
            for log in logs where round < log.count { arrivals += log[round..<min(round + runLength, log.count)] }
        }
        let replica = try venue.openReplica(path: path)
        let now = BenchVenue.now(after: importLog.count + checkIns)
        for page in CatchUpBench.pages(importLog, size: 500) {
            _ = try replica.ingest(page, nowMillis: now, clockBoundMillis: BenchVenue.clockBoundMillis)
        }
        return Prepared(
            replica: replica,
            groups: CatchUpBench.pages(arrivals, size: groupSize * runLength),
            nowMillis: now
        )
    }
}
