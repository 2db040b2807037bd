import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// The rule of DESIGN.md, "Irreversible acts need the strongest proof": what a kiosk does about a
/// revocation of itself (``RevocationVerdict``), and the replica facts it is judged on.
@Suite struct RevocationVerdictTests {
    /// A venue with campaign `c1` locked, kiosk A's `count` check-ins stored.
    static func venueWithCheckIns(_ dir: String, count: Int) throws -> (TestVenue, Replica, [SignedDelta]) {
        let venue = try TestVenue()
        let replica = try venue.openReplica(in: dir, named: "a")
        try replica.ingestAtTestTime(venue.lockDeltas("c1"))
        let checkIns = try RosterTests.checkIns(venue, key: venue.kioskAKey, count: count)
        #expect(try replica.ingestAtTestTime(checkIns).applied.count == count)
        return (venue, replica, checkIns)
    }

    /// The organizer's revocation of `kiosk` (kiosk A by default) at `watermark`, naming that delta by
    /// hash, after the lock (or after `previous`, the organizer's delta before it).
    static func organizerRevokes(
        _ venue: TestVenue,
        kiosk: AuthorID? = nil,
        watermark: UInt64,
        hash: [UInt8]?,
        after previous: SignedDelta? = nil
    ) throws -> SignedDelta {
        let parent = previous ?? venue.lockDeltas("c1")[1]
        var organizer = venue.signer(
            venue.organizerKey,
            head: AuthorHead(author: venue.organizer, seq: parent.seq, hash: Blake2b.hash256(parent.envelope))
        )
        return try organizer.sign(
            .revoke(
                RevokePayload(
                    kiosk: kiosk ?? venue.kioskA,
                    watermark: watermark,
                    keyGeneration: parent.seq,
                    sealedKeys: [],
                    watermarkHash: hash
                )
            ),
            hlc: HLC(physicalMillis: TestTime.start + 90_000 + parent.seq, logical: 0)
        )
    }

    /// Kiosk A's verdict, its peers having said they hold `peersHold`.
    static func verdict(
        _ replica: Replica,
        _ venue: TestVenue,
        peersHold: [AuthorID: [AuthorID: UInt64]] = [:]
    ) throws
        -> RevocationVerdict
    {
        RevocationVerdict.judge(
            membership: try replica.membership(of: venue.kioskA),
            organizer: venue.organizer,
            heldOnlyHere: try replica.recordsHeldOnlyHere(me: venue.kioskA, peersHold: peersHold)
        )
    }

    @Test func onlyTheOrganizerKeyWithEveryRecordHeldElsewhereWipes() throws {
        let venue = try TestVenue()
        var organizer = venue.signer(venue.organizerKey)
        let byOrganizer = try organizer.sign(
            .revoke(RevokePayload(kiosk: venue.kioskA, watermark: 3, keyGeneration: 1, sealedKeys: [])),
            hlc: HLC(physicalMillis: TestTime.start, logical: 0)
        )
        var device = venue.signer(try SigningKeyPair.generate())
        let byDevice = try device.sign(
            .revoke(RevokePayload(kiosk: venue.kioskA, watermark: 3, keyGeneration: 1, sealedKeys: [])),
            hlc: HLC(physicalMillis: TestTime.start, logical: 0)
        )
        func judge(_ membership: Membership, records: UInt64, held: UInt64) -> RevocationVerdict {
            let only =
                records > held ? [HeldOnlyHere(author: venue.kioskA, through: records, knownElsewhere: held)] : []
            return RevocationVerdict.judge(membership: membership, organizer: venue.organizer, heldOnlyHere: only)
        }
        let enrolled = Membership.enrolled(name: "Kiosk A", location: "Hall")
        #expect(judge(enrolled, records: 3, held: 3) == .notInForce)
        #expect(judge(.unknown, records: 3, held: 3) == .notInForce)
        guard case .wipe = judge(.revoked(watermark: 3, evidence: byOrganizer), records: 3, held: 3) else {
            Issue.record("the organizer key, every record held elsewhere: wipe")
            return
        }
        guard case .stop(let kept) = judge(.revoked(watermark: 3, evidence: byOrganizer), records: 4, held: 3) else {
            Issue.record("a record held nowhere else must stop the wipe")
            return
        }
        #expect(kept.contains("seq 4 here, 3 known elsewhere"))
        guard case .stop(let device) = judge(.revoked(watermark: 3, evidence: byDevice), records: 3, held: 9) else {
            Issue.record("a device never wipes")
            return
        }
        #expect(device.contains("organizer device"))
    }

    @Test func theRevocationsWatermarkHashProvesTheChainHeldWhereItWasSigned() throws {
        try withTemporaryDirectory { dir in
            let (venue, replica, checkIns) = try Self.venueWithCheckIns(dir, count: 3)
            let revoke = try Self.organizerRevokes(venue, watermark: 3, hash: Blake2b.hash256(checkIns[2].envelope))
            #expect(try replica.ingestAtTestTime([revoke]).revocations.count == 1)
            #expect(try replica.knownHeldElsewhere(venue.kioskA) == 3)
            guard case .wipe = try Self.verdict(replica, venue) else {
                Issue.record("held to its last record by the replica the organizer signed on: wipe")
                return
            }
        }
    }

    @Test func aCheckInAfterTheWatermarkIsSetAsideAndStopsTheWipe() throws {
        try withTemporaryDirectory { dir in
            let (venue, replica, checkIns) = try Self.venueWithCheckIns(dir, count: 3)
            let revoke = try Self.organizerRevokes(venue, watermark: 2, hash: Blake2b.hash256(checkIns[1].envelope))
            try replica.ingestAtTestTime([revoke])
            #expect(try replica.head(of: venue.kioskA).seq == 2)
            #expect(try replica.setAsideCount() == 1, "the cut check-in is kept aside, not destroyed")
            #expect(try replica.lastRecord(of: venue.kioskA) == 3)
            guard case .stop(let reason) = try Self.verdict(replica, venue) else {
                Issue.record("seq 3 exists nowhere else: stop and keep")
                return
            }
            #expect(reason.contains("seq 3 here, 2 known elsewhere"))
        }
    }

    @Test func anotherKiosksCheckInsHeldOnlyHereStopTheWipe() throws {
        try withTemporaryDirectory { dir in
            let (venue, replica, checkIns) = try Self.venueWithCheckIns(dir, count: 3)
            // Kiosk B's two check-ins reached A; nobody else is known to hold them (B may be gone).
            var kioskB = venue.signer(venue.kioskBKey)
            let fromB = try (1...2).map { index in
                try kioskB.sign(
                    Bodies.checkIn("c1", "b\(index)@example.com", kiosk: "Kiosk B"),
                    hlc: HLC(physicalMillis: TestTime.start + 10_000 + UInt64(index), logical: 0)
                )
            }
            #expect(try replica.ingestAtTestTime(fromB).applied.count == 2)
            let revokeA = try Self.organizerRevokes(venue, watermark: 3, hash: Blake2b.hash256(checkIns[2].envelope))
            #expect(try replica.ingestAtTestTime([revokeA]).revocations.count == 1)
            guard case .stop(let reason) = try Self.verdict(replica, venue) else {
                Issue.record("kiosk B's check-ins exist only here: stop and keep")
                return
            }
            #expect(reason.contains("kiosk \(venue.kioskB)"))
            // Kiosk B's heads said it holds its chain to seq 2: nothing is held only here.
            let report = [venue.kioskB: [venue.kioskB: UInt64(2)]]
            guard case .wipe = try Self.verdict(replica, venue, peersHold: report) else {
                Issue.record("every chain held elsewhere: wipe")
                return
            }
            // Once B is revoked here too, its word no longer counts: it may have wiped itself since.
            let revokeB = try Self.organizerRevokes(
                venue,
                kiosk: venue.kioskB,
                watermark: 2,
                hash: Blake2b.hash256(fromB[1].envelope),
                after: revokeA
            )
            #expect(try replica.ingestAtTestTime([revokeB]).revocations.count == 1)
            guard case .stop = try Self.verdict(replica, venue, peersHold: report) else {
                Issue.record("a revoked kiosk's report of what it holds must not allow a wipe")
                return
            }
        }
    }

    @Test func aPeersHeadCountsOnlyWhenItNamesOurVeryDelta() throws {
        try withTemporaryDirectory { dir in
            let (venue, replica, checkIns) = try Self.venueWithCheckIns(dir, count: 3)
            #expect(
                !(try replica.recordHeldElsewhere(
                    AuthorHead(author: venue.kioskA, seq: 3, hash: [UInt8](repeating: 7, count: 32)),
                    by: venue.kioskB
                ))
            )
            #expect(
                !(try replica.recordHeldElsewhere(
                    AuthorHead(author: venue.kioskA, seq: 9, hash: [UInt8](repeating: 7, count: 32)),
                    by: venue.kioskB
                ))
            )
            #expect(try replica.heldElsewhere() == 0)
            #expect(
                try replica.recordHeldElsewhere(
                    AuthorHead(author: venue.kioskA, seq: 2, hash: Blake2b.hash256(checkIns[1].envelope)),
                    by: venue.kioskB
                )
            )
            #expect(try replica.heldElsewhere() == 2)
            #expect(
                !(try replica.recordHeldElsewhere(
                    AuthorHead(author: venue.kioskA, seq: 1, hash: Blake2b.hash256(checkIns[0].envelope)),
                    by: venue.kioskB
                ))
            )
            #expect(try replica.heldElsewhere() == 2, "never moves back")
        }
    }
}
