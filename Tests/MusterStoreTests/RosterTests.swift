import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// The roster: only the organizer and enrolled kiosks author deltas; a revocation cuts a kiosk off
/// at its watermark on every replica, whatever order things arrive in.
@Suite struct RosterTests {
    static func checkIns(_ venue: TestVenue, key: SigningKeyPair, count: Int) throws -> [SignedDelta] {
        var signer = venue.signer(key)
        return try (1...count).map { index in
            try signer.sign(
                Bodies.checkIn("c1", "person\(index)@example.com", kiosk: "Kiosk A"),
                hlc: HLC(physicalMillis: TestTime.start + UInt64(index) * 1_000, logical: 0)
            )
        }
    }

    static func revoke(
        _ venue: TestVenue,
        kiosk: AuthorID,
        watermark: UInt64,
        sealedTo: [SigningKeyPair] = []
    )
        throws -> SignedDelta
    {
        var signer = venue.signer(venue.organizerKey)
        let key = try SecureBytes.random(count: 32)
        let sealed = try sealedTo.map {
            RevokePayload.SealedKey(kiosk: AuthorID($0.publicKey), sealed: try SealedBox.seal(key, to: $0.publicKey))
        }
        return try signer.sign(
            .revoke(RevokePayload(kiosk: kiosk, watermark: watermark, keyGeneration: 1, sealedKeys: sealed)),
            hlc: HLC(physicalMillis: TestTime.start + 100_000, logical: 0)
        )
    }

    @Test func anUnenrolledKioskCannotAuthorDeltasUntilItsCertificateIsKnown() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let replica = try venue.openReplica(in: dir, enrolled: false)
            let deltas = try Self.checkIns(venue, key: venue.kioskAKey, count: 3)
            let refused = try replica.ingestAtTestTime(deltas)
            #expect(refused.applied.isEmpty)
            #expect(refused.rejected.map(\.code) == [.notEnrolled])
            #expect(try replica.heads().isEmpty)
            #expect(try replica.membership(of: venue.kioskA) == .unknown)

            try replica.admitCertificate(venue.certificate(for: venue.kioskAKey, name: "Kiosk A"), for: venue.kioskA)
            #expect(try replica.membership(of: venue.kioskA) == .enrolled(name: "Kiosk A", location: "Hall"))
            #expect(try replica.ingestAtTestTime(deltas).applied.count == 3)
        }
    }

    @Test func certificatesMustComeFromTheOrganizerForThatKioskAndVenue() throws {
        let venue = try TestVenue()
        let good = venue.certificate(for: venue.kioskAKey, name: "Kiosk A")
        #expect(throws: Never.self) { try EnrollmentCertificate.verify(good, for: venue.kioskA, policy: venue.policy) }
        // Presented by another kiosk.
        #expect(throws: ReplicaError.self) {
            try EnrollmentCertificate.verify(good, for: venue.kioskB, policy: venue.policy)
        }
        // Signed by a kiosk instead of the organizer.
        let selfSigned = VenuePolicy.certificate(
            venue: venue.venue,
            organizer: venue.kioskBKey,
            payload: EnrollPayload(kiosk: venue.kioskB, name: "Me", location: ""),
            hlc: HLC(physicalMillis: 1, logical: 0)
        )
        #expect(throws: ReplicaError.self) {
            try EnrollmentCertificate.verify(selfSigned, for: venue.kioskB, policy: venue.policy)
        }
        // Another venue's certificate (captured bytes replayed elsewhere).
        let other = VenuePolicy(venue: .random(), organizer: venue.organizer)
        #expect(throws: ReplicaError.self) { try EnrollmentCertificate.verify(good, for: venue.kioskA, policy: other) }
        // A flipped byte in the signature.
        var signature = good.signature
        signature[5] ^= 1
        let forged = try SignedDelta(envelope: good.envelope, signature: signature)
        #expect(throws: ReplicaError.self) {
            try EnrollmentCertificate.verify(forged, for: venue.kioskA, policy: venue.policy)
        }
    }

    @Test func aCertificateIsNeverALogEntry() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let replica = try venue.openReplica(in: dir)
            let report = try replica.ingestAtTestTime([venue.certificate(for: venue.kioskBKey, name: "B")])
            #expect(report.applied.isEmpty)
            #expect(report.rejected.map(\.code) == [.notAuthorized])
            #expect(try replica.heads().isEmpty)
        }
    }

    @Test func revocationDropsWhatTheKioskWroteAfterItsWatermarkOnEveryReplica() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let deltas = try Self.checkIns(venue, key: venue.kioskAKey, count: 5)
            let revoke = try Self.revoke(venue, kiosk: venue.kioskA, watermark: 3, sealedTo: [venue.kioskBKey])
            // Had all five before the revocation arrived.
            let early = try venue.openReplica(in: dir, named: "early")
            try early.ingestAtTestTime(deltas)
            let report = try early.ingestAtTestTime([revoke])
            #expect(report.revocations.map(\.kiosk) == [venue.kioskA])
            #expect(try early.head(of: venue.kioskA).seq == 3)
            // Got the revocation first (in the same batch, after the kiosk's deltas).
            let late = try venue.openReplica(in: dir, named: "late")
            let lateReport = try late.ingestAtTestTime(deltas + [revoke])
            #expect(lateReport.rejected.map(\.code) == [.revoked])
            #expect(lateReport.applied.count == 4)  // the revocation and seq 1...3
            // Never saw anything past the watermark.
            let clean = try venue.openReplica(in: dir, named: "clean")
            try clean.ingestAtTestTime(Array(deltas.prefix(3)) + [revoke])
            #expect(try early.digest() == clean.digest())
            #expect(try late.digest() == clean.digest())
            // Later deltas of the kiosk are refused; what it wrote before stays and is still served.
            #expect(try early.ingestAtTestTime(Array(deltas.suffix(2))).rejected.map(\.code) == [.revoked])
            #expect(try early.deltas(of: venue.kioskA).map(\.seq) == [1, 2, 3])
            let peer = try venue.openReplica(in: dir, named: "peer")
            try peer.ingestAtTestTime(try early.deltas(of: venue.organizer))
            #expect(try peer.ingestAtTestTime(try early.deltas(of: venue.kioskA)).applied.count == 3)
            #expect(try peer.digest() == clean.digest())
            guard case .revoked(let watermark, let evidence) = try early.membership(of: venue.kioskA) else {
                Issue.record("kiosk A should be revoked")
                return
            }
            #expect(watermark == 3)
            #expect(Replica.verifyRevocation(evidence, policy: venue.policy)?.kiosk == venue.kioskA)
            // The rotated network key is sealed to kiosk B only, and B can open it.
            let sealed = try early.sealedNetworkKeys(for: venue.kioskB)
            #expect(sealed.map(\.generation) == [1])
            #expect(try SealedBox.open(sealed[0].sealed, with: venue.kioskBKey).count == 32)
            #expect(try early.sealedNetworkKeys(for: venue.kioskA).isEmpty)
            #expect(try early.roster().first { $0.kiosk == venue.kioskA }?.revokedWatermark == 3)
        }
    }

    @Test func aRevocationArrivingBeforeTheEnrollmentStillWins() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let replica = try venue.openReplica(in: dir, enrolled: false)
            try replica.ingestAtTestTime([try Self.revoke(venue, kiosk: venue.kioskA, watermark: 0)])
            try replica.admitCertificate(venue.certificate(for: venue.kioskAKey, name: "Kiosk A"), for: venue.kioskA)
            guard case .revoked = try replica.membership(of: venue.kioskA) else {
                Issue.record("a later certificate must not undo a revocation")
                return
            }
            let report = try replica.ingestAtTestTime(Self.checkIns(venue, key: venue.kioskAKey, count: 1))
            #expect(report.rejected.map(\.code) == [.revoked])
        }
    }

    @Test func kioskDeltasAreRefusedFromSomeoneWhoIsNotTheOrganizer() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let replica = try venue.openReplica(in: dir)
            var signer = venue.signer(venue.kioskBKey)
            let forgedRevoke = try signer.sign(
                .revoke(RevokePayload(kiosk: venue.kioskA, watermark: 0, keyGeneration: 9, sealedKeys: [])),
                hlc: HLC(physicalMillis: TestTime.start, logical: 0)
            )
            let report = try replica.ingestAtTestTime([forgedRevoke])
            #expect(report.rejected.map(\.code) == [.notAuthorized])
            #expect(try replica.membership(of: venue.kioskA) == .enrolled(name: "Kiosk A", location: "Hall"))
        }
    }
}
