import Foundation
import MusterCore
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// The WAL is copied into the database in the idle moment after a commit, not inside a check-in's
/// commit, and stays bounded (RELIABILITY.md, finding 3).
@Suite struct WALCheckpointerTests {
    func walBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The most the WAL may hold: the backstop's pages and one check-in's, with the header.
    let bound = 32 + (Int(WALCheckpointer.backstopPages) + 16) * (4_096 + 24)

    /// `count` check-ins by kiosk A, each followed by an idle moment when `idle` (until the
    /// checkpoint asked for has run, at most 5 s); returns the largest the WAL was after one.
    func checkIns(_ count: Int, venue: TestVenue, into replica: Replica, idle: Bool) throws -> Int {
        var largest = 0
        for index in 0..<count {
            try checkIn(index, venue: venue, into: replica)
            largest = max(largest, walBytes(replica.path))
            guard idle, let checkpointer = replica.checkpointer else { continue }
            let deadline = ContinuousClock.now + .seconds(5)
            while checkpointer.isPending && ContinuousClock.now < deadline { usleep(100) }
            #expect(!checkpointer.isPending, "the checkpoint after check-in \(index) did not run")
        }
        return largest
    }

    func checkIn(_ index: Int, venue: TestVenue, into replica: Replica) throws {
        let stamp = HLC(physicalMillis: TestTime.start + 60_000 + UInt64(index), logical: 0)
        let body = Bodies.checkIn("c1", "guest\(index)@example.com", kiosk: "Kiosk A")
        let (_, own) = try replica.appendLocal(
            keyPair: venue.kioskAKey,
            nowMillis: stamp.physicalMillis,
            nextHLC: { _ in stamp },
            { _ in .append(body, answer: true) }
        )
        #expect(own != nil)
    }

    /// A door's check-ins, each followed by the idle moment a door has (here: until the checkpoint
    /// asked for has run, at most 5 s): every checkpoint runs after a commit, none inside one.
    /// Then one transaction larger than the backstop checkpoints inside its own commit, as SQLite's
    /// automatic checkpoint would.
    @Test func aDoorsCheckInsNeverWaitForACheckpoint() throws {
        try withTestReplica { (venue, replica, _) throws in
            let checkpointer = try #require(replica.checkpointer)
            let largest = try checkIns(1_500, venue: venue, into: replica, idle: true)
            let after = checkpointer.afterCommits.load(ordering: .relaxed)
            #expect(after >= 3, "checkpoints after a commit: \(after)")
            #expect(checkpointer.insideCommits.load(ordering: .relaxed) == 0)
            #expect(largest <= bound, "the WAL reached \(largest) bytes")

            var signer = venue.signer(venue.organizerKey)
            let bodies: [DeltaBody] = (0..<2_000).map { index in
                Bodies.attendee("c1", email: "person\(index)@example.com", first: "P\(index)", last: "S\(index)")
            }
            let deltas = try signer.sign(bodies, fromMillis: TestTime.start)
            #expect(try replica.ingestAtTestTime(deltas, atomic: true).rejected.isEmpty)
            #expect(checkpointer.insideCommits.load(ordering: .relaxed) == 1, "the large transaction's own")
            #expect(try replica.view { try $0.attendees(campaignID: "c1") }.count == 2_000)
        }
    }

    /// Check-ins back to back leave no idle moment: whichever way each WAL is checkpointed, it never
    /// holds more than the backstop allows, and every check-in is there.
    @Test func checkInsBackToBackKeepTheWALBounded() throws {
        try withTestReplica { (venue, replica, _) throws in
            let checkpointer = try #require(replica.checkpointer)
            let largest = try checkIns(1_500, venue: venue, into: replica, idle: false)
            let all =
                checkpointer.insideCommits.load(ordering: .relaxed) + checkpointer.afterCommits.load(ordering: .relaxed)
            #expect(all >= 20, "checkpoints: \(all)")
            #expect(largest <= bound, "the WAL reached \(largest) bytes")
            #expect(try replica.head(of: venue.kioskA).seq == 1_500)
        }
    }

    /// A replica closed (a revoked kiosk's, before its files go) and then released removes its hook
    /// from a connection that is already closed without touching it.
    @Test func aClosedReplicaIsReleasedCleanly() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            var replica: Replica? = try venue.openReplica(in: dir)
            try replica?.close()
            replica = nil
            let again = try venue.openReplica(in: dir)
            #expect(again.checkpointer != nil)
        }
    }
}
