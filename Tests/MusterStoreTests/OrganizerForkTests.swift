import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// The organizer key itself used on two machines during a partition (what organizer devices exist
/// to avoid): its chain forks, is never cut, and every replica keeps the same version of each
/// forked seq (``OrganizerVersion/beats(_:_:)``) with the chain that follows it.
@Suite struct OrganizerForkTests {
    /// Two branches of the organizer's chain from one head: each a lock and an undo of one of kiosk
    /// A's check-ins; side B also revokes kiosk B. Side A signs first.
    struct Split {
        let desk: OrganizerDeviceTests.Desk
        let kioskWrites: [SignedDelta]
        let sideA: [SignedDelta]
        let sideB: [SignedDelta]

        init(in dir: String) throws {
            let desk = try OrganizerDeviceTests.Desk()
            let kioskWrites = try RosterTests.checkIns(desk.venue, key: desk.venue.kioskAKey, count: 3)
            let head = try desk.replica(in: dir, named: "origin").head(of: desk.venue.organizer)
            func side(
                _ status: String,
                undo target: SignedDelta,
                revoke: Bool,
                at start: UInt64
            ) throws -> [SignedDelta] {
                var signer = desk.venue.signer(desk.venue.organizerKey, head: head)
                var bodies: [DeltaBody] = [
                    .lock(LockPayload(version: 2, campaignID: "c1", checkInStatus: status)),
                    .undo(UndoPayload(target: target.ref, targetHash: Blake2b.hash256(target.envelope))),
                ]
                if revoke { bodies.append(try desk.revoke(desk.venue.kioskB, watermark: 0)) }
                return try bodies.enumerated().map { index, body in
                    try signer.sign(body, hlc: HLC(physicalMillis: start + UInt64(index) * 1_000, logical: 0))
                }
            }
            self.desk = desk
            self.kioskWrites = kioskWrites
            sideA = try side("Side A", undo: kioskWrites[0], revoke: false, at: TestTime.start + 50_000)
            sideB = try side("Side B", undo: kioskWrites[1], revoke: true, at: TestTime.start + 60_000)
        }

        func replica(in dir: String, named name: String) throws -> Replica {
            let replica = try desk.replica(in: dir, named: name)
            try replica.ingestAtTestTime(kioskWrites)
            return replica
        }

        /// Which of kiosk A's three check-ins are live (not undone).
        func live(_ replica: Replica) throws -> [Int] {
            try replica.view { view in
                try (1...3).map { index in
                    try view.presences(campaignID: "c1", attendeeKey: "person\(index)@example.com").count
                }
            }
        }
    }

    @Test func twoMachinesSigningWithTheOrganizerKeyConvergeOnTheEarlierVersion() throws {
        try withTemporaryDirectory { dir in
            let split = try Split(in: dir)
            let organizer = split.desk.venue.organizer
            let one = try split.replica(in: dir, named: "one")
            let two = try split.replica(in: dir, named: "two")
            try one.ingestAtTestTime(split.sideA)
            try two.ingestAtTestTime(split.sideB)
            #expect(try two.membership(of: split.desk.venue.kioskB).revokedWatermark == 0)
            // Healed: each side meets the other's whole branch.
            let atOne = try one.ingestAtTestTime(split.sideB)
            let atTwo = try two.ingestAtTestTime(split.sideA)
            #expect(atOne.applied.isEmpty)
            #expect(atOne.rejected.first?.code == .superseded)
            #expect(atOne.organizerForks.count == 1)
            #expect(atTwo.applied == split.sideA)
            #expect(atTwo.organizerForks.count == 1)
            #expect(Set(atTwo.forkEvidence.map(\.signature)) == Set([split.sideA[0], split.sideB[0]].map(\.signature)))
            for replica in [one, two] {
                #expect(try replica.digest() == one.digest())
                #expect(try replica.head(of: organizer).hash == Blake2b.hash256(split.sideA.last!.envelope))
                #expect(try replica.view { try $0.lock() }?.checkInStatus == "Side A")
                // Side A's undo holds, side B's is gone with its branch.
                #expect(try split.live(replica) == [0, 1, 1])
                // So is side B's revocation: kiosk B is on the roster again.
                #expect(try replica.membership(of: split.desk.venue.kioskB).revokedWatermark == nil)
                #expect(try replica.status().forks == 1)
            }
            // The organizer goes on from the kept head, on every replica.
            var next = split.desk.venue.signer(split.desk.venue.organizerKey, head: try one.head(of: organizer))
            let after = try next.sign(
                .lock(LockPayload(version: 3, campaignID: "c1", checkInStatus: "After")),
                hlc: HLC(physicalMillis: TestTime.start + 90_000, logical: 0)
            )
            for replica in [one, two] {
                #expect(try replica.ingestAtTestTime([after]).applied == [after])
                #expect(try replica.view { try $0.lock() }?.checkInStatus == "After")
            }
            #expect(try one.digest() == two.digest())
        }
    }

    /// However the versions and branches arrive (the loser first or last, one delta at a time or
    /// as evidence pairs), every replica ends on one digest.
    @Test func everyDeliveryOrderEndsOnTheSameState() throws {
        try withTemporaryDirectory { dir in
            let split = try Split(in: dir)
            let a = split.sideA
            let b = split.sideB
            let orders: [[[SignedDelta]]] = [
                [a, b], [b, a], [b + a],
                // One batch splits into runs by seq (``IngestBatch/runs(_:first:)``): the first
                // run is a0, a1, b2, a broken chain refused whole, and the sync layer asks again.
                [a + b, a],
                [[b[0]], [a[0]], [b[1]], [a[1]], [b[2]]],
                [[b[0], b[1]], [a[0], b[0]], [a[1]]],
                b.map { [$0] } + a.map { [$0] },
            ]
            var digests: Set<String> = []
            for (index, order) in orders.enumerated() {
                let replica = try split.replica(in: dir, named: "r\(index)")
                for batch in order { try replica.ingestAtTestTime(batch) }
                #expect(try replica.view { try $0.lock() }?.checkInStatus == "Side A", "order \(index)")
                #expect(try replica.head(of: split.desk.venue.organizer).hash == Blake2b.hash256(a.last!.envelope))
                digests.insert(try replica.digest())
            }
            #expect(digests.count == 1)
        }
    }

    /// A replica on one branch meets only the other branch's later delta (heads that differ at one
    /// seq, as peers probe them): it cannot judge that delta, which follows another version of the
    /// seq below. It refuses it as a broken chain at that seq, so the sync layer sends its own
    /// version of the seq below, down to where the chains part.
    @Test func aLaterDeltaOfTheOtherBranchIsABrokenChainAtItsSeq() throws {
        try withTemporaryDirectory { dir in
            let split = try Split(in: dir)
            let two = try split.replica(in: dir, named: "two")
            try two.ingestAtTestTime(split.sideB)
            let report = try two.ingestAtTestTime([split.sideA[1]])
            #expect(report.rejected.map(\.code) == [.brokenChain])
            #expect(report.rejected.first?.ref == split.sideA[1].ref)
            #expect(report.organizerForks.isEmpty)
            // One step down, the two versions share a parent: now it is decided.
            #expect(try two.ingestAtTestTime([split.sideA[0]]).applied == [split.sideA[0]])
            #expect(try two.head(of: split.desk.venue.organizer).seq == split.sideA[0].seq)
        }
    }

    /// One batch with the losing branch first: its revocation is stored, then dropped with the
    /// branch, and the report names no revocation to act on (the kiosk it named would wipe itself).
    @Test func aRevocationDroppedWithItsBranchIsNotReported() throws {
        try withTemporaryDirectory { dir in
            let split = try Split(in: dir)
            let two = try split.replica(in: dir, named: "two")
            let report = try two.ingestAtTestTime(split.sideB + split.sideA)
            #expect(report.revocations.isEmpty)
            #expect(report.applied == split.sideA)
            #expect(try two.membership(of: split.desk.venue.kioskB).revokedWatermark == nil)
        }
    }

    /// A batch holding the winning version and a later delta of the losing branch: the winner is
    /// stored, the delta that does not follow on it is not.
    @Test func aBatchWithBothBranchesStoresTheWinnersChainOnly() throws {
        try withTemporaryDirectory { dir in
            let split = try Split(in: dir)
            let two = try split.replica(in: dir, named: "two")
            try two.ingestAtTestTime(split.sideB)
            let report = try two.ingestAtTestTime([split.sideA[0], split.sideB[1]])
            #expect(report.applied == [split.sideA[0]])
            #expect(try two.head(of: split.desk.venue.organizer).hash == Blake2b.hash256(split.sideA[0].envelope))
        }
    }

    /// A version stamped before its parent could never be stored: it does not contend, however
    /// early its stamp, and the branch held stays.
    @Test func aVersionThatCouldNotBeStoredDoesNotContend() throws {
        try withTemporaryDirectory { dir in
            let split = try Split(in: dir)
            let two = try split.replica(in: dir, named: "two")
            try two.ingestAtTestTime(split.sideB)
            var signer = split.desk.venue.signer(
                split.desk.venue.organizerKey,
                head: try split.replica(in: dir, named: "origin2").head(of: split.desk.venue.organizer)
            )
            let early = try signer.sign(
                .lock(LockPayload(version: 9, campaignID: "c1", checkInStatus: "Back-dated")),
                hlc: HLC(physicalMillis: 1, logical: 0)
            )
            #expect(OrganizerVersion.beats(early, split.sideB[0]))
            let report = try two.ingestAtTestTime([early])
            #expect(report.rejected.map(\.code) == [.badTimestamp])
            #expect(try two.head(of: split.desk.venue.organizer).hash == Blake2b.hash256(split.sideB.last!.envelope))
            #expect(try two.status().forks == 0)
        }
    }

    /// An organizer submission through the control socket at a seq the kiosk holds (two `muster`
    /// commands signed on one head) is refused, even when stamped earlier: the version held was
    /// acknowledged to the command that submitted it, and nothing was shown to any peer.
    @Test func aSubmissionAtAHeldSeqIsRefusedNotResolved() throws {
        try withTemporaryDirectory { dir in
            let split = try Split(in: dir)
            let two = try split.replica(in: dir, named: "two")
            try two.ingestAtTestTime(split.sideB, atomic: true)
            #expect(throws: ReplicaError.self) { try two.ingestAtTestTime([split.sideA[0]], atomic: true) }
            #expect(try two.view { try $0.lock() }?.checkInStatus == "Side B")
            #expect(try two.status().forks == 0)
        }
    }

    /// Three machines signing one seq: whichever two a replica meets first, all end on the same
    /// version, the one that beats both others.
    @Test func threeVersionsOfOneSeqEndOnTheOneThatBeatsBoth() throws {
        try withTemporaryDirectory { dir in
            let desk = try OrganizerDeviceTests.Desk()
            let head = try desk.replica(in: dir, named: "origin").head(of: desk.venue.organizer)
            let versions = try ["X", "Y", "Z"].enumerated().map { index, status in
                var signer = desk.venue.signer(desk.venue.organizerKey, head: head)
                // Equal stamps: the hash decides.
                return try signer.sign(
                    .lock(LockPayload(version: 2, campaignID: "c1", checkInStatus: status)),
                    hlc: HLC(physicalMillis: TestTime.start + 50_000, logical: 0)
                )
            }
            let best = versions.first { v in versions.allSatisfy { $0 == v || OrganizerVersion.beats(v, $0) } }
            let orders = [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]]
            for (index, order) in orders.enumerated() {
                let replica = try desk.replica(in: dir, named: "r\(index)")
                for position in order { try replica.ingestAtTestTime([versions[position]]) }
                #expect(try replica.head(of: desk.venue.organizer).hash == Blake2b.hash256(try #require(best).envelope))
            }
        }
    }

    @Test func theEarlierStampWinsAndTheHashBreaksATie() throws {
        let desk = try OrganizerDeviceTests.Desk()
        func lock(_ status: String, at millis: UInt64) throws -> SignedDelta {
            var signer = desk.venue.signer(desk.venue.organizerKey)
            return try signer.sign(
                .lock(LockPayload(version: 2, campaignID: "c1", checkInStatus: status)),
                hlc: HLC(physicalMillis: millis, logical: 0)
            )
        }
        let early = try lock("early", at: TestTime.start)
        let late = try lock("late", at: TestTime.start + 1)
        #expect(OrganizerVersion.beats(early, late))
        #expect(!OrganizerVersion.beats(late, early))
        let twin = try lock("twin", at: TestTime.start)
        let byHash = Blake2b.hash256(early.envelope).lexicographicallyPrecedes(Blake2b.hash256(twin.envelope))
        #expect(OrganizerVersion.beats(early, twin) == byHash)
        #expect(OrganizerVersion.beats(twin, early) == !byHash)
    }
}
