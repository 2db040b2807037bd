import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// Organizer devices (``EnrollRole/organizerDevice``): each signs organizer deltas on its own chain,
/// so two of them on either side of a partition never fork; what they write merges by the same
/// order-independent rules as everything else, and who may revoke whom has no cycle.
@Suite struct OrganizerDeviceTests {
    /// The venue's organizer key, two kiosks (``TestVenue``) and two organizer devices.
    struct Desk {
        let venue: TestVenue
        let deviceA: SigningKeyPair
        let deviceB: SigningKeyPair

        init() throws {
            venue = try TestVenue()
            deviceA = try SigningKeyPair.generate()
            deviceB = try SigningKeyPair.generate()
        }

        func certificate(_ device: SigningKeyPair, name: String) -> SignedDelta {
            VenuePolicy.certificate(
                venue: venue.venue,
                organizer: venue.organizerKey,
                payload: EnrollPayload(
                    kiosk: AuthorID(device.publicKey),
                    name: name,
                    location: "",
                    role: .organizerDevice
                ),
                hlc: HLC(physicalMillis: TestTime.start, logical: 0)
            )
        }

        /// A replica with both kiosks and both devices on its roster and the organizer's campaign `c1`.
        func replica(in dir: String, named name: String) throws -> Replica {
            let replica = try venue.openReplica(in: dir, named: name)
            try replica.admitCertificate(certificate(deviceA, name: "Laptop A"), for: AuthorID(deviceA.publicKey))
            try replica.admitCertificate(certificate(deviceB, name: "Laptop B"), for: AuthorID(deviceB.publicKey))
            try replica.ingestAtTestTime(venue.lockDeltas("c1"))
            return replica
        }

        /// `bodies` signed by `key` on a fresh chain, a second apart from `start`.
        func signed(_ key: SigningKeyPair, _ bodies: [DeltaBody], start: UInt64) throws -> [SignedDelta] {
            var signer = venue.signer(key)
            return try bodies.enumerated().map { index, body in
                try signer.sign(body, hlc: HLC(physicalMillis: start + UInt64(index) * 1_000, logical: 0))
            }
        }

        func revoke(_ target: AuthorID, watermark: UInt64, generation: UInt64 = 1) throws -> DeltaBody {
            let key = try SecureBytes.random(count: 32)
            let sealed = try [venue.kioskAKey, venue.kioskBKey].map {
                RevokePayload.SealedKey(
                    kiosk: AuthorID($0.publicKey),
                    sealed: try SealedBox.seal(key, to: $0.publicKey)
                )
            }
            return .revoke(
                RevokePayload(kiosk: target, watermark: watermark, keyGeneration: generation, sealedKeys: sealed)
            )
        }
    }

    @Test func aDeviceSignsOrganizerKindsOnItsOwnChainAndNothingElse() throws {
        try withTemporaryDirectory { dir in
            let desk = try Desk()
            let replica = try desk.replica(in: dir, named: "r")
            #expect(try replica.membership(of: AuthorID(desk.deviceA.publicKey)) == .device(name: "Laptop A"))
            let lock = try desk.signed(
                desk.deviceA,
                [.lock(LockPayload(version: 2, campaignID: "c1", checkInStatus: "Desk A"))],
                start: TestTime.start + 10_000
            )
            #expect(try replica.ingestAtTestTime(lock).applied.count == 1)
            #expect(try replica.view { try $0.lock() }?.checkInStatus == "Desk A")

            // A device is no kiosk: its check-in is refused, and nothing of it is stored.
            var chain = try desk.venue.signer(desk.deviceA, head: replica.head(of: AuthorID(desk.deviceA.publicKey)))
            let checkIn = try chain.sign(
                Bodies.checkIn("c1", "ada@example.com", kiosk: "Laptop A"),
                hlc: HLC(physicalMillis: TestTime.start + 20_000, logical: 0)
            )
            let refused = try replica.ingestAtTestTime([checkIn])
            #expect(refused.applied.isEmpty)
            #expect(refused.rejected.map(\.code) == [.notAuthorized])

            // A key with no device certificate may not lock.
            let stranger = try SigningKeyPair.generate()
            let forged = try desk.signed(
                stranger,
                [.lock(LockPayload(version: 9, campaignID: "c1", checkInStatus: "Forged"))],
                start: TestTime.start + 10_000
            )
            #expect(try replica.ingestAtTestTime(forged).rejected.map(\.code) == [.notEnrolled])
            #expect(try replica.view { try $0.lock() }?.checkInStatus == "Desk A")
        }
    }

    @Test func aDeviceCertificateIsNeverAKioskSessionKeyAndDecodesOnlyOneWay() throws {
        let desk = try Desk()
        let certificate = desk.certificate(desk.deviceA, name: "Laptop A")
        guard case .enroll(let payload) = try certificate.decode().body else {
            Issue.record("not an enrollment")
            return
        }
        #expect(payload.role == .organizerDevice)
        // A kiosk's certificate has no role byte: the encoding of every earlier certificate stands.
        let kiosk = EnrollPayload(kiosk: desk.venue.kioskA, name: "K", location: "L")
        var writer = ByteWriter()
        kiosk.encode(into: &writer)
        var explicit = writer
        explicit.write(EnrollRole.kiosk)
        var reader = ByteReader(explicit.bytes)
        #expect(throws: DecodeError.self) { try EnrollPayload(from: &reader) }
    }

    /// The partition: device A on one side locks, undoes a check-in and revokes kiosk B; device B on
    /// the other side does the same with other values. Both sides' deltas reach both replicas in
    /// opposite orders: no fork, the same digest, and the documented outcome.
    @Test func twoDevicesSigningDuringAPartitionMergeWithoutAFork() throws {
        try withTemporaryDirectory { dir in
            let desk = try Desk()
            let kioskWrites = try RosterTests.checkIns(desk.venue, key: desk.venue.kioskAKey, count: 3)
            let kioskB = try RosterTests.checkIns(desk.venue, key: desk.venue.kioskBKey, count: 4)
            // Each side: a lock, an undo of one of kiosk A's check-ins, a revocation of kiosk B.
            func side(
                _ device: SigningKeyPair,
                _ status: String,
                undo target: SignedDelta,
                watermark: UInt64,
                at start: UInt64
            )
                throws -> [SignedDelta]
            {
                try desk.signed(
                    device,
                    [
                        .lock(LockPayload(version: 2, campaignID: "c1", checkInStatus: status)),
                        .undo(UndoPayload(target: target.ref, targetHash: Blake2b.hash256(target.envelope))),
                        try desk.revoke(desk.venue.kioskB, watermark: watermark),
                    ],
                    start: start
                )
            }
            let sideA = try side(
                desk.deviceA,
                "Side A",
                undo: kioskWrites[0],
                watermark: 3,
                at: TestTime.start + 50_000
            )
            let sideB = try side(
                desk.deviceB,
                "Side B",
                undo: kioskWrites[1],
                watermark: 2,
                at: TestTime.start + 60_000
            )
            let one = try desk.replica(in: dir, named: "one")
            let two = try desk.replica(in: dir, named: "two")
            for batch in [kioskWrites, kioskB, sideA, sideB] { try one.ingestAtTestTime(batch) }
            for batch in [sideB, kioskB, sideA, kioskWrites] { try two.ingestAtTestTime(batch) }
            #expect(try one.status().forks == 0)
            #expect(try one.digest() == two.digest())
            // The lock: highest (version, hlc, author, seq), so the later of two equal versions.
            #expect(try one.view { try $0.lock() }?.checkInStatus == "Side B")
            // Both undos hold (kiosk B checked the same people in; its check-ins are not undone).
            let live = try one.view { view in
                try (1...3).map { index in
                    try view.presences(campaignID: "c1", attendeeKey: "person\(index)@example.com")
                        .filter { $0.ref.author == desk.venue.kioskA }.count
                }
            }
            #expect(live == [0, 0, 1])
            // Both revocations of kiosk B hold; the lower watermark wins.
            #expect(try one.membership(of: desk.venue.kioskB).revokedWatermark == 2)
            #expect(try two.membership(of: desk.venue.kioskB).revokedWatermark == 2)
            #expect(try one.head(of: desk.venue.kioskB).seq == 2)
        }
    }

    /// Revocations have no cycle: a device's revocation of a device counts for nothing, and the
    /// organizer's revocation of a device takes back what that device revoked after its watermark,
    /// in whatever order the deltas arrive.
    @Test func revokingADeviceTakesBackWhatItRevokedAfterItsWatermark() throws {
        try withTemporaryDirectory { dir in
            let desk = try Desk()
            let deviceA = AuthorID(desk.deviceA.publicKey)
            let deviceB = AuthorID(desk.deviceB.publicKey)
            // The thief on laptop A: revokes laptop B (no effect) and kiosk A (taken back below).
            let thief = try desk.signed(
                desk.deviceA,
                [
                    .lock(LockPayload(version: 2, campaignID: "c1", checkInStatus: "Honest")),
                    try desk.revoke(deviceB, watermark: 0),
                    try desk.revoke(desk.venue.kioskA, watermark: 0),
                ],
                start: TestTime.start + 50_000
            )
            let kioskA = try RosterTests.checkIns(desk.venue, key: desk.venue.kioskAKey, count: 2)

            let early = try desk.replica(in: dir, named: "early")
            try early.ingestAtTestTime(kioskA)
            try early.ingestAtTestTime(thief)
            #expect(try early.membership(of: deviceB) == .device(name: "Laptop B"))
            #expect(try early.membership(of: desk.venue.kioskA).revokedWatermark == 0)
            #expect(try early.head(of: desk.venue.kioskA).seq == 0)

            // The organizer revokes laptop A after its lock (seq 1): its two revocations go.
            let lockDeltas = desk.venue.lockDeltas("c1")
            var organizer = desk.venue.signer(
                desk.venue.organizerKey,
                head: AuthorHead(author: desk.venue.organizer, seq: 2, hash: Blake2b.hash256(lockDeltas[1].envelope))
            )
            let revokeThief = try organizer.sign(
                try desk.revoke(deviceA, watermark: 1, generation: 2),
                hlc: HLC(physicalMillis: TestTime.start + 90_000, logical: 0)
            )
            try early.ingestAtTestTime([revokeThief])
            #expect(try early.membership(of: deviceA).revokedWatermark == 1)
            #expect(try early.membership(of: desk.venue.kioskA) == .enrolled(name: "Kiosk A", location: "Hall"))
            #expect(try early.view { try $0.lock() }?.checkInStatus == "Honest")
            // Kiosk A's check-ins, dropped by the thief's revocation, are taken again from a peer.
            #expect(try early.ingestAtTestTime(kioskA).applied.count == 2)

            // Another replica that hears the organizer first never applies the thief's revocations.
            let late = try desk.replica(in: dir, named: "late")
            try late.ingestAtTestTime([revokeThief])
            try late.ingestAtTestTime(thief)
            try late.ingestAtTestTime(kioskA)
            #expect(try late.digest() == early.digest())
            #expect(try late.membership(of: desk.venue.kioskA) == .enrolled(name: "Kiosk A", location: "Hall"))
        }
    }

    /// Two revocations announcing one key generation (one per side of a partition): every replica
    /// keeps the key of the revocation with the lowest hash, whatever the order.
    @Test func oneGenerationAnnouncedTwiceEndsOnTheSameKeyEverywhere() throws {
        try withTemporaryDirectory { dir in
            let desk = try Desk()
            let first = try desk.signed(
                desk.deviceA,
                [try desk.revoke(desk.venue.kioskB, watermark: 0)],
                start: TestTime.start + 50_000
            )
            let second = try desk.signed(
                desk.deviceB,
                [try desk.revoke(desk.venue.kioskB, watermark: 0)],
                start: TestTime.start + 60_000
            )
            let one = try desk.replica(in: dir, named: "one")
            let two = try desk.replica(in: dir, named: "two")
            try one.ingestAtTestTime(first)
            try one.ingestAtTestTime(second)
            try two.ingestAtTestTime(second)
            try two.ingestAtTestTime(first)
            let keysOne = try one.sealedNetworkKeys(for: desk.venue.kioskA)
            let keysTwo = try two.sealedNetworkKeys(for: desk.venue.kioskA)
            #expect(keysOne.count == 1)
            #expect(keysOne.map(\.sealed) == keysTwo.map(\.sealed))
            let winner = [first[0], second[0]].min {
                Blake2b.hash256($0.envelope).lexicographicallyPrecedes(Blake2b.hash256($1.envelope))
            }!
            guard case .revoke(let payload) = try winner.decode().body else { return }
            #expect(keysOne.first?.sealed == payload.sealedKeys.first { $0.kiosk == desk.venue.kioskA }?.sealed)
        }
    }
}

extension Membership {
    /// The watermark of a revoked key; nil otherwise.
    var revokedWatermark: UInt64? {
        if case .revoked(let watermark, _) = self { return watermark }
        return nil
    }
}

extension OrganizerDeviceTests {
    /// A stolen device revokes a kiosk at watermark 0: every replica sets the kiosk's check-ins aside
    /// instead of destroying them, and gives them back by itself once the organizer revokes the
    /// device, with no peer left to send them again.
    @Test func whatAThiefDevicesRevocationCutComesBackWithoutAnyPeer() throws {
        try withTemporaryDirectory { dir in
            let desk = try Desk()
            let deviceA = AuthorID(desk.deviceA.publicKey)
            let thief = try desk.signed(
                desk.deviceA,
                [
                    .lock(LockPayload(version: 2, campaignID: "c1", checkInStatus: "Honest")),
                    try desk.revoke(desk.venue.kioskA, watermark: 0),
                ],
                start: TestTime.start + 50_000
            )
            let replica = try desk.replica(in: dir, named: "only")
            try replica.ingestAtTestTime(try RosterTests.checkIns(desk.venue, key: desk.venue.kioskAKey, count: 2))
            let before = try replica.digest()
            try replica.ingestAtTestTime(thief)
            #expect(try replica.head(of: desk.venue.kioskA).seq == 0)
            #expect(try replica.setAsideCount() == 2)
            // Nothing comes back while the revocation holds.
            #expect(
                try replica.restoreSetAside(
                    nowMillis: TestTime.start + 3_600_000,
                    clockBoundMillis: TestTime.clockBound
                ).applied.isEmpty
            )

            let lockDeltas = desk.venue.lockDeltas("c1")
            var organizer = desk.venue.signer(
                desk.venue.organizerKey,
                head: AuthorHead(author: desk.venue.organizer, seq: 2, hash: Blake2b.hash256(lockDeltas[1].envelope))
            )
            let revokeThief = try organizer.sign(
                try desk.revoke(deviceA, watermark: 0, generation: 2),
                hlc: HLC(physicalMillis: TestTime.start + 90_000, logical: 0)
            )
            try replica.ingestAtTestTime([revokeThief])
            let restored = try replica.restoreSetAside(
                nowMillis: TestTime.start + 3_600_000,
                clockBoundMillis: TestTime.clockBound
            )
            #expect(restored.applied.count == 2)
            #expect(try replica.head(of: desk.venue.kioskA).seq == 2)
            // What is aside now is the thief's own lock and revocation, cut at its watermark 0.
            #expect(try replica.setAsideCount() == 2)
            #expect(try replica.membership(of: desk.venue.kioskA) == .enrolled(name: "Kiosk A", location: "Hall"))
            #expect(try replica.digest() == before, "the state is what it was before the thief")
        }
    }
}

extension OrganizerDeviceTests {
    /// The kiosk a thief's device revoked signs nothing while its own later deltas are set aside: a
    /// new check-in at a set-aside seq would be a second version of it, a fork that cuts the kiosk
    /// on every replica once the revocation is taken back (found by the fault campaign). Once the
    /// organizer revokes the device, the set-aside deltas come back and the kiosk signs after them.
    @Test func aKioskSignsNothingOverItsOwnSetAsideDeltas() throws {
        try withTemporaryDirectory { dir in
            let desk = try Desk()
            let kioskA = desk.venue.kioskA
            let replica = try desk.replica(in: dir, named: "kiosk-a")
            try replica.ingestAtTestTime(try RosterTests.checkIns(desk.venue, key: desk.venue.kioskAKey, count: 3))
            let thief = try desk.signed(
                desk.deviceA,
                [
                    .lock(LockPayload(version: 2, campaignID: "c1", checkInStatus: "Honest")),
                    try desk.revoke(kioskA, watermark: 1),
                ],
                start: TestTime.start + 50_000
            )
            try replica.ingestAtTestTime(thief)
            #expect(try replica.head(of: kioskA).seq == 1)
            func checkIn(_ email: String, at millis: UInt64) throws(ReplicaError) -> SignedDelta? {
                let stamp = HLC(physicalMillis: millis, logical: 0)
                return try replica.appendLocal(
                    keyPair: desk.venue.kioskAKey,
                    nowMillis: millis,
                    nextHLC: { _ in stamp }
                ) { _ in .append(Bodies.checkIn("c1", email, kiosk: "Kiosk A"), answer: true) }.delta
            }
            let refused = thrownError { () throws(ReplicaError) in
                try checkIn("eve@example.com", at: TestTime.start + 60_000)
            }
            #expect(refused?.code == .revoked)
            #expect(try replica.head(of: kioskA).seq == 1, "nothing signed at seq 2")

            let lockDeltas = desk.venue.lockDeltas("c1")
            var organizer = desk.venue.signer(
                desk.venue.organizerKey,
                head: AuthorHead(author: desk.venue.organizer, seq: 2, hash: Blake2b.hash256(lockDeltas[1].envelope))
            )
            try replica.ingestAtTestTime([
                try organizer.sign(
                    try desk.revoke(AuthorID(desk.deviceA.publicKey), watermark: 0, generation: 2),
                    hlc: HLC(physicalMillis: TestTime.start + 90_000, logical: 0)
                )
            ])
            try replica.restoreSetAside(nowMillis: TestTime.start + 3_600_000, clockBoundMillis: TestTime.clockBound)
            #expect(try replica.head(of: kioskA).seq == 3)
            let signed = try checkIn("eve@example.com", at: TestTime.start + 95_000)
            #expect(signed?.seq == 4)
            #expect(try replica.status().forks == 0)
        }
    }

    /// A device that forks is cut before its fork like a kiosk, and a revocation it signed past the
    /// cut stops counting on every replica: one that stored it before seeing the fork derives its
    /// revocations again and ends where one that saw the fork first ends (before, the first kept the
    /// kiosk revoked and cut for good, and the two never converged).
    @Test func aForkedDevicesRevocationPastItsCutCountsNowhere() throws {
        try withTemporaryDirectory { dir in
            let desk = try OrganizerDeviceTests.Desk()
            let kioskA = desk.venue.kioskA
            let checkIns = try RosterTests.checkIns(desk.venue, key: desk.venue.kioskAKey, count: 3)
            let lock = DeltaBody.lock(LockPayload(version: 5, campaignID: "c1", checkInStatus: "Attended"))
            let other = DeltaBody.lock(LockPayload(version: 6, campaignID: "c1", checkInStatus: "Other"))
            let first = try desk.signed(
                desk.deviceA,
                [lock, try desk.revoke(kioskA, watermark: 1)],
                start: TestTime.start + 10_000
            )
            let second = try desk.signed(desk.deviceA, [other], start: TestTime.start + 20_000)
            let early = try desk.replica(in: dir, named: "early")
            let late = try desk.replica(in: dir, named: "late")
            for replica in [early, late] { try replica.ingestAtTestTime(checkIns) }

            let stored = try early.ingestAtTestTime(first)
            #expect(stored.revocations.count == 1)
            #expect(try early.head(of: kioskA).seq == 1)
            let cut = try early.ingestAtTestTime(second)
            #expect(cut.newForks.map(\.seq) == [1])
            #expect(try early.membership(of: kioskA) == .enrolled(name: "Kiosk A", location: "Hall"))
            try early.restoreSetAside(nowMillis: TestTime.start + 3_600_000, clockBoundMillis: TestTime.clockBound)

            try late.ingestAtTestTime([first[0], second[0]])
            let refused = try late.ingestAtTestTime(first)
            #expect(refused.applied.isEmpty && refused.revocations.isEmpty)
            #expect(try early.head(of: kioskA).seq == 3)
            #expect(try late.head(of: kioskA).seq == 3)
            #expect(try early.digest() == late.digest())
        }
    }
}
