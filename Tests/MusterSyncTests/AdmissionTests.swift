import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterSync

/// The roster's verdict on a peer's first message, with real certificates signed by a real
/// organizer key.
struct AdmissionTests {
    let organizer: SigningKeyPair
    let policy: VenuePolicy
    let kiosk: SigningKeyPair
    let certificate: SignedDelta

    init() throws {
        organizer = try SigningKeyPair.generate()
        let venue = VenueID.random()
        policy = VenuePolicy(venue: venue, organizer: AuthorID(organizer.publicKey))
        kiosk = try SigningKeyPair.generate()
        certificate = try Self.enroll(kiosk, role: .kiosk, by: organizer, venue: venue)
    }

    /// A certificate: an enrollment outside every log (seq 0), signed by `organizer`.
    static func enroll(
        _ key: SigningKeyPair,
        role: EnrollRole,
        by organizer: SigningKeyPair,
        venue: VenueID
    ) throws -> SignedDelta {
        let delta = Delta(
            venue: venue,
            author: AuthorID(organizer.publicKey),
            seq: 0,
            prev: Delta.genesisPrev,
            hlc: HLC(physicalMillis: 1_000, logical: 0),
            body: .enroll(EnrollPayload(kiosk: AuthorID(key.publicKey), name: "k", location: "door", role: role))
        )
        let envelope = delta.envelope()
        return try SignedDelta(envelope: envelope, signature: organizer.sign(envelope))
    }

    var peer: AuthorID { AuthorID(kiosk.publicKey) }

    @Test func aKioskNewToTheRosterIsAdmittedAndRecorded() {
        let verdict = Admission.judge(.credentials(certificate), from: peer, membership: .unknown, policy: policy)
        guard case .admit(let payload, let record) = verdict else {
            Issue.record("expected admission, got \(verdict)")
            return
        }
        #expect(payload.kiosk == peer)
        #expect(record == certificate)
    }

    @Test func aKioskAlreadyOnTheRosterIsAdmittedWithoutAWrite() {
        let verdict = Admission.judge(
            .credentials(certificate),
            from: peer,
            membership: .enrolled(name: "k1", location: "door"),
            policy: policy
        )
        guard case .admit(_, let record) = verdict else {
            Issue.record("expected admission, got \(verdict)")
            return
        }
        #expect(record == nil)
    }

    @Test func aRevokedKioskIsShownItsRevocation() throws {
        let evidence = CoreTestKit.log(1, key: organizer)[0]
        let verdict = Admission.judge(
            .credentials(certificate),
            from: peer,
            membership: .revoked(watermark: 3, evidence: evidence),
            policy: policy
        )
        #expect(verdict == .showRevocation(evidence))
    }

    @Test func aRevocationAsTheFirstWordIsJudgedByOurOwnStore() {
        #expect(
            Admission.judge(.revoked(certificate), from: peer, membership: .unknown, policy: policy)
                == .accusesUs(certificate)
        )
    }

    @Test func strangersAndDevicesAreRefused() throws {
        #expect(Admission.judge(.ping, from: peer, membership: .unknown, policy: policy) == .refuse(.noCredentials))
        // Another kiosk's certificate shown by this key, and a certificate the kiosk signed itself.
        let stranger = try CoreTestKit.id()
        let forged = try Self.enroll(kiosk, role: .kiosk, by: kiosk, venue: policy.venue)
        for (certificate, key) in [(certificate, stranger), (forged, peer)] {
            let verdict = Admission.judge(.credentials(certificate), from: key, membership: .unknown, policy: policy)
            guard case .refuse(.notOnRoster) = verdict else {
                Issue.record("admitted a certificate that does not enroll the key: \(verdict)")
                continue
            }
        }
        let device = try Self.enroll(kiosk, role: .organizerDevice, by: organizer, venue: policy.venue)
        #expect(
            Admission.judge(.credentials(device), from: peer, membership: .unknown, policy: policy)
                == .refuse(.organizerDevice)
        )
    }
}
