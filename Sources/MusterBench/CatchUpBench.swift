import MusterCore
import MusterRules

/// A fresh replica catching up: the organizer's import and the check-ins of every kiosk, delivered
/// as the sync layer pages them (one author's run of ``BenchOptions/batchSize`` deltas per ingest call, the
/// organizer first, then the kiosks in turn), into a real SQLite file.
enum CatchUpBench {
    static func run(_ options: BenchOptions, venue: BenchVenue, directory: String) throws -> IngestTiming {
        let batches = try Self.batches(deltas: options.catchUpDeltas, venue: venue)
        let total = batches.reduce(0) { $0 + $1.count }
        let replica = try venue.openReplica(path: directory + "/catch-up.sqlite")
        defer { try? replica.close() }
        let now = BenchVenue.now(after: total)
        return try IngestTiming.ingest(batches, into: replica, nowMillis: now, expected: total, what: "catch-up")
    }

    /// The catch-up log of `deltas` deltas (the campaign, attendees for half, check-ins for the other
    /// half), signed and paged in the order the sync layer delivers it. Also the instruction-count
    /// guard's workload (``CountedWorkload``).
    static func batches(deltas: Int, venue: BenchVenue) throws -> [[SignedDelta]] {
        let checkIns = deltas / 2
        let attendees = deltas - checkIns - 1  // plus the campaign delta
        let importLog = try venue.importLog(attendees: attendees)
        let kioskLogs = try venue.checkInLogs(count: checkIns, attendees: attendees)

        var batches = pages(importLog, size: BenchOptions.batchSize)
        let kioskPages = kioskLogs.map { pages($0, size: BenchOptions.batchSize) }
        for round in 0..<(kioskPages.map(\.count).max() ?? 0) {
            for kiosk in kioskPages where round < kiosk.count { batches.append(kiosk[round]) }
        }
        return batches
    }

    static func pages(_ log: [SignedDelta], size: Int) -> [[SignedDelta]] {
        stride(from: 0, to: log.count, by: size).map { Array(log[$0..<min($0 + size, log.count)]) }
    }
}
