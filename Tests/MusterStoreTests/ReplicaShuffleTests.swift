import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// The materialized state is a pure function of the set of deltas: every delivery order that
/// respects each author's log gives the same digest and the same counts.
@Suite("Replica convergence")
struct ReplicaShuffleTests {
    /// Builds the scenario and a reference replica that ingested it one delta at a time in log order.
    func withReference(_ body: (String, TestVenue, ScenarioLog, Replica) throws -> Void) throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            let log = ScenarioLog(venue: venue)
            let reference = try venue.openReplica(in: dir, named: "reference")
            for delta in log.all {
                let report = try reference.ingestAtTestTime([delta], nowMillis: log.now)
                #expect(report.applied == [delta])
            }
            let status = try reference.status()
            #expect(status.checkedIn == ScenarioLog.expectedCheckedIn)
            #expect(status.inside == ScenarioLog.expectedInside)
            try body(dir, venue, log, reference)
        }
    }

    /// Delivers `batches` to a fresh replica and checks every delta was applied exactly once.
    func deliver(
        _ batches: [[SignedDelta]],
        venue: TestVenue,
        log: ScenarioLog,
        dir: String,
        name: String
    ) throws
        -> Replica
    {
        let replica = try venue.openReplica(in: dir, named: name)
        var applied = 0
        for batch in batches {
            let report = try replica.ingestAtTestTime(batch, nowMillis: log.now)
            #expect(report.rejected.isEmpty, "\(name): \(report.rejected)")
            #expect(report.duplicates == 0)
            applied += report.applied.count
        }
        #expect(applied == log.all.count, "\(name)")
        return replica
    }

    @Test func randomInterleavingsAndBatchesConverge() throws {
        try withReference { (dir, venue, log, reference) throws in
            let expected = try reference.status()
            let logs = log.authors.map { log.deltas(of: $0) }
            for seed in UInt64(1)...8 {
                var rng = SplitMix64(seed: seed)
                // B: fine-grained interleaving, small batches; C: long runs per author, large batches.
                var orders: [[SignedDelta]] = []
                var replicas: [Replica] = []
                for (maxRun, maxBatch, name) in [(1, 4, "b"), (12, 25, "c")] {
                    let order = Shuffle.interleave(logs, maxRun: maxRun, using: &rng)
                    let batches = Shuffle.batches(order, maxBatch: maxBatch, using: &rng)
                    orders.append(order)
                    replicas.append(try deliver(batches, venue: venue, log: log, dir: dir, name: "\(name)\(seed)"))
                }
                #expect(orders.contains { $0 != log.all })
                for replica in replicas {
                    #expect(try replica.digest() == expected.digest, "seed \(seed)")
                    #expect(try replica.status() == expected, "seed \(seed)")
                }
            }
        }
    }

    @Test func oneReversedBatchConverges() throws {
        try withReference { (dir, venue, log, reference) throws in
            let replica = try deliver([Array(log.all.reversed())], venue: venue, log: log, dir: dir, name: "reversed")
            #expect(try replica.status() == (try reference.status()))
        }
    }

    @Test func digestDependsOnTheDeltas() throws {
        try withReference { (dir, venue, log, reference) throws in
            let lastOfA = log.deltas(of: venue.kioskA).last!
            guard case .checkIn = try lastOfA.decode().body else {
                Issue.record("kiosk A's last delta should be a check-in")
                return
            }
            let partial = try venue.openReplica(in: dir, named: "partial")
            try partial.ingestAtTestTime(log.all.filter { $0 != lastOfA }, nowMillis: log.now)
            let status = try partial.status()
            #expect(status.digest != (try reference.digest()))
            #expect(status.checkedIn == ScenarioLog.expectedCheckedIn - 1)
            #expect(try partial.digest() != (try venue.openReplica(in: dir, named: "empty").digest()))
            // Receiving the missing check-in converges.
            try partial.ingestAtTestTime([lastOfA], nowMillis: log.now)
            #expect(try partial.digest() == (try reference.digest()))
        }
    }

    @Test func undoDeliveredBeforeItsTargetStillCancelsIt() throws {
        try withReference { (dir, venue, log, reference) throws in
            let replica = try venue.openReplica(in: dir, named: "undo-first")
            try replica.ingestAtTestTime(log.deltas(of: venue.organizer), nowMillis: log.now)
            try replica.ingestAtTestTime(log.deltas(of: venue.kioskB), nowMillis: log.now)
            #expect(try replica.view { try $0.presence(log.undoneCheckIn) } == nil)
            #expect(try replica.digest() != (try reference.digest()))

            try replica.ingestAtTestTime(log.deltas(of: venue.kioskA), nowMillis: log.now)
            #expect(try replica.digest() == (try reference.digest()))
            #expect(try replica.view { try $0.presence(log.undoneCheckIn) } != nil)
            let target = try replica.view {
                try $0.lookup(campaignID: ScenarioLog.campaign, query: ScenarioLog.email(5))
            }
            #expect(target?.isCheckedIn == false)
            #expect(try replica.status().checkedIn == ScenarioLog.expectedCheckedIn)
        }
    }

    @Test func kioskLogsBeforeTheOrganizersConverge() throws {
        try withReference { (dir, venue, log, reference) throws in
            // Check-ins and walk-ins arrive before the campaign, the attendee list and the lock.
            let replica = try venue.openReplica(in: dir, named: "kiosks-first")
            try replica.ingestAtTestTime(
                log.deltas(of: venue.kioskB) + log.deltas(of: venue.kioskA),
                nowMillis: log.now
            )
            #expect(try replica.status().lock == nil)
            try replica.ingestAtTestTime(log.deltas(of: venue.organizer), nowMillis: log.now)
            #expect(try replica.digest() == (try reference.digest()))
            // The import arrived after the newer walk-in registration and still replaced its person
            // fields: a walk-in never overwrites an imported person, whatever the order (issue 13).
            let twenty = try replica.view {
                try $0.lookup(campaignID: ScenarioLog.campaign, query: ScenarioLog.email(20))
            }
            #expect(twenty?.firstName == "First20")
            #expect(twenty?.ticket == ScenarioLog.ticket(20))
        }
    }

    @Test func replicasThatSyncFromEachOtherConverge() throws {
        try withReference { (dir, venue, log, reference) throws in
            // Two kiosks each hold the organizer's log and their own, then exchange what the other lacks
            // (read back from their stores, as replication would).
            let x = try venue.openReplica(in: dir, named: "x")
            let y = try venue.openReplica(in: dir, named: "y")
            try x.ingestAtTestTime(log.deltas(of: venue.organizer) + log.deltas(of: venue.kioskA), nowMillis: log.now)
            try y.ingestAtTestTime(log.deltas(of: venue.kioskB) + log.deltas(of: venue.organizer), nowMillis: log.now)
            #expect(try x.digest() != (try y.digest()))

            let toY = try x.deltas(of: venue.kioskA)
            let toX = try y.deltas(of: venue.kioskB)
            #expect(try y.ingestAtTestTime(toY, nowMillis: log.now).applied.count == toY.count)
            #expect(try x.ingestAtTestTime(toX, nowMillis: log.now).applied.count == toX.count)
            let digest = try reference.digest()
            #expect(try x.digest() == digest)
            #expect(try y.digest() == digest)
            #expect(try x.heads() == (try reference.heads()))
            #expect(try y.heads() == (try reference.heads()))
        }
    }
}
