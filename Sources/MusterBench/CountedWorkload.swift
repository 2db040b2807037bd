import Foundation
import MusterCore
import MusterRules
import MusterStore

/// `muster-bench --count=catch-up|interleaved|local-commit --n=N`: one figure's work on a fixed
/// workload and nothing else, for `scripts/instruction-guard` to count under callgrind.
///
/// The work is the same in every process: the venue's keys come from a fixed seed, so every delta is
/// the same bytes; every timestamp is fixed; nothing is timed. Signing and setup happen first; only
/// ``CountedSection/run(_:)`` is counted (callgrind's `--toggle-collect`), and the guard subtracts
/// what does not grow with `n` by counting `n` and `2n`. The replica lives in a fresh temporary
/// directory, removed on exit.
enum CountedWorkload: String, CaseIterable {
    /// `n` deltas of ``CatchUpBench``: the campaign, attendees, then 8 kiosks' check-ins, in pages of 500.
    case catchUp = "catch-up"
    /// `n` check-ins of ``InterleavedIngestBench``: 49 authors, one delta per run, 8 per group commit.
    case interleaved
    /// `n` local check-ins of ``LocalCommitBench`` on a replica of ``attendees`` attendees.
    case localCommit = "local-commit"

    /// The seed of every counted venue.
    static let seed: UInt64 = 0x4D55_5354_4552  // "MUSTER"
    /// Attendees imported before the local check-ins: the same for every `n` (at most this many), so
    /// the replica the check-ins are stored in is the same size.
    static let attendees = 2_000

    /// Prepares the workload of `n`, runs its counted part, and returns how many deltas it stored.
    /// - Parameter keepIn: a directory to make the replica in and leave it (nil: a temporary one, removed).
    func run(n: Int, keepIn: String? = nil) throws -> Int {
        let directory = keepIn ?? FileManager.default.temporaryDirectory.path + "/muster-count-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { if keepIn == nil { try? FileManager.default.removeItem(atPath: directory) } }
        let path = directory + "/replica.sqlite"
        switch self {
        case .catchUp:
            let venue = try BenchVenue(kiosks: 8, seed: Self.seed)
            let batches = try CatchUpBench.batches(deltas: n, venue: venue)
            let replica = try venue.openReplica(path: path)
            defer { try? replica.close() }
            let now = BenchVenue.now(after: n)
            return try CountedSection.run { try Self.ingest(batches, into: replica, nowMillis: now, durable: true) }
        case .interleaved:
            let venue = try BenchVenue(kiosks: InterleavedIngestBench.authors, seed: Self.seed)
            let prepared = try InterleavedIngestBench.prepare(checkIns: n, runLength: 1, venue: venue, path: path)
            defer { try? prepared.replica.close() }
            return try CountedSection.run {
                try Self.ingest(prepared.groups, into: prepared.replica, nowMillis: prepared.nowMillis, durable: false)
            }
        case .localCommit:
            guard n <= Self.attendees else {
                throw BenchError(.setup, "--count=local-commit checks in at most \(Self.attendees) attendees")
            }
            let venue = try BenchVenue(kiosks: 1, seed: Self.seed)
            let replica = try LookupBench.prepare(attendees: Self.attendees, venue: venue, path: path)
            defer { try? replica.close() }
            var kiosk = LocalCommitBench.Kiosk(venue: venue, attendees: Self.attendees)
            return try CountedSection.run {
                for index in 0..<n { try kiosk.checkIn(index, into: replica) }
                return n
            }
        }
    }

    /// Stores `groups`, one ingest call each, untimed; fails unless every delta was stored.
    private static func ingest(
        _ groups: [[SignedDelta]],
        into replica: Replica,
        nowMillis: UInt64,
        durable: Bool
    ) throws -> Int {
        var applied = 0
        for group in groups {
            let report = try replica.ingest(
                group,
                nowMillis: nowMillis,
                clockBoundMillis: BenchVenue.clockBoundMillis,
                durable: durable
            )
            if let refused = report.rejected.first { throw BenchError(.wrongResult, "a delta was refused: \(refused)") }
            applied += report.applied.count
        }
        guard applied == groups.reduce(0, { $0 + $1.count }) else {
            throw BenchError(.wrongResult, "\(applied) of \(groups.reduce(0) { $0 + $1.count }) deltas stored")
        }
        return applied
    }
}
