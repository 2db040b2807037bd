import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Synchronization
import Testing

@testable import MusterRules
@testable import MusterStore

/// The last ``Replica/peerReserveBytes`` of a nearly full disk are kept for this kiosk's own
/// writes (RELIABILITY.md, finding 3): peers' deltas wait, a person's check-in and an organizer's
/// submission go ahead.
@Suite struct DiskReserveTests {
    @Test func peersDeltasWaitWhileTheDiskIsNearlyFullAndAPersonsWriteGoesAhead() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let free = Atomic<UInt64>(Replica.peerReserveBytes - 1)
            let replica = try venue.openReplica(in: dir, freeBytes: { free.load(ordering: .relaxed) })
            let peer = try RosterTests.checkIns(venue, key: venue.kioskBKey, count: 2)
            let refused = thrownError { () throws(ReplicaError) in try replica.ingestAtTestTime(peer) }
            #expect(refused?.code == .diskFull)
            #expect(refused?.message.contains("kept for this kiosk's check-ins") == true)
            #expect(try replica.head(of: venue.kioskB).seq == 0)
            // The organizer's submission through the control socket is a person's write.
            #expect(try replica.ingestAtTestTime(venue.lockDeltas("c1"), atomic: true).applied.count > 0)
            // So is this kiosk's own check-in.
            let stamp = HLC(physicalMillis: TestTime.start + 60_000, logical: 0)
            let (_, own) = try replica.appendLocal(
                keyPair: venue.kioskAKey,
                nowMillis: stamp.physicalMillis,
                nextHLC: { _ in stamp }
            ) { _ in .append(Bodies.checkIn("c1", "ada@example.com", kiosk: "Kiosk A"), answer: true) }
            #expect(own != nil)
            // Room again: the peer's deltas are stored when they come again.
            free.store(Replica.peerReserveBytes, ordering: .relaxed)
            #expect(try replica.ingestAtTestTime(peer).applied == peer)
        }
    }

    @Test func theFreeSpaceIsReadFromTheReplicasFileSystem() throws {
        try withTemporaryDirectory { dir in
            let free = try #require(Replica.freeBytes(in: dir))
            #expect(free > 0)
            #expect(Replica.freeBytes(in: dir + "/no-such-directory") == nil)
        }
    }
}
