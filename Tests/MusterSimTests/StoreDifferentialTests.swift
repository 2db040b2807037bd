import Foundation
import MusterCore
import MusterRules
import MusterSim
import MusterTestSupport
import Testing

/// One judgement, two stores (DESIGN.md): the SQLite ``Replica`` and the simulator's ``MemoryStore``
/// execute the same ``RunJudge`` plans, so fed the same random histories (``DifferentialHistory``:
/// honest, forked, Byzantine, organizer forks, revocations with watermarks) they must say the same of
/// every batch and hold the same deltas after it.
///
/// Each history costs about 40 ms, most of it opening a fresh SQLite replica, so `swift test` runs 300;
/// `MUSTER_DIFFERENTIAL_HISTORIES=10000` runs more;
/// `MUSTER_DIFFERENTIAL_SEED` starts at another seed (a failure names the seed that replays it).
@Suite struct StoreDifferentialTests {
    static let histories = Int(ProcessInfo.processInfo.environment["MUSTER_DIFFERENTIAL_HISTORIES"] ?? "") ?? 300
    static let firstSeed = UInt64(ProcessInfo.processInfo.environment["MUSTER_DIFFERENTIAL_SEED"] ?? "") ?? 0

    /// The histories in two shards, one a core: seeds `first + shard`, `first + shard + 2`, …
    @Test(arguments: 0..<2)
    func bothStoresJudgeEveryHistoryAlike(shard: Int) throws {
        var tally = DifferentialTally()
        let started = ContinuousClock.now
        for index in stride(from: shard, to: Self.histories, by: 2) {
            let seed = Self.firstSeed + UInt64(index)
            let history = try DifferentialHistory(seed: seed)
            if let mismatch = try Self.differ(history, tally: &tally) {
                Issue.record("history \(seed): \(mismatch)")
                tally.failures += 1
                if tally.failures >= 3 { break }
            }
        }
        print("store differential, shard \(shard): \(tally) in \(ContinuousClock.now - started)")
        #expect(tally.failures == 0)
        // The histories must exercise what the stores could disagree on.
        guard tally.failures == 0, tally.histories >= 50 else { return }
        #expect(tally.rejected[.fork, default: 0] > 0 && tally.rejected[.forked, default: 0] > 0)
        #expect(tally.newForks > 0 && tally.organizerForks > 0 && tally.rejected[.superseded, default: 0] > 0)
        #expect(tally.rejected[.revoked, default: 0] > 0 && tally.revocations > 0)
        #expect(tally.refusedSubmissions > 0 && tally.clockWarnings > 0)
    }

    /// Runs `history` on a fresh pair of stores; the first difference, if any.
    static func differ(_ history: DifferentialHistory, tally: inout DifferentialTally) throws -> String? {
        try withTemporaryDirectory { directory in
            let pair = try StorePair(history, directory: directory)
            defer { pair.close() }
            for (index, event) in history.events.enumerated() {
                if let mismatch = try pair.run(event) {
                    return "event \(index) of \(history.events.count): \(mismatch)"
                }
            }
            if let mismatch = try pair.compareHoldings() { return "at the end: \(mismatch)" }
            tally.add(pair, events: history.events.count)
            return nil
        }
    }
}

/// What the histories exercised, from the replica's reports.
struct DifferentialTally: CustomStringConvertible {
    var histories = 0
    var events = 0
    var failures = 0
    var applied = 0
    var duplicates = 0
    var rejected: [DeltaRejection.Code: Int] = [:]
    var newForks = 0
    var organizerForks = 0
    var revocations = 0
    var clockWarnings = 0
    var refusedSubmissions = 0

    mutating func add(_ pair: StorePair, events count: Int) {
        histories += 1
        events += count
        refusedSubmissions += pair.refusedSubmissions
        for report in pair.reports {
            applied += report.applied.count
            duplicates += report.duplicates
            for rejection in report.rejected { rejected[rejection.code, default: 0] += 1 }
            newForks += report.newForks.count
            organizerForks += report.organizerForks.count
            revocations += report.revocations.count
            clockWarnings += report.clockWarnings.count
        }
    }

    var description: String {
        let refusals = rejected.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        return
            "\(histories) histories, \(events) events, \(failures) failing; applied \(applied), duplicates \(duplicates), "
            + "forks cut \(newForks), organizer forks \(organizerForks), revocations \(revocations), clock warnings "
            + "\(clockWarnings), submissions refused \(refusedSubmissions); refused: \(refusals)"
    }
}
