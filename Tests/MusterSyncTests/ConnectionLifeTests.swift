import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterSync

/// A connection's life without a socket: two ``ConnectionLife`` machines talk to each other through
/// their `send` steps, with real certificates and the real admission rule.
struct ConnectionLifeTests {
    let organizer: SigningKeyPair
    let policy: VenuePolicy
    let a: SigningKeyPair
    let b: SigningKeyPair
    let certificateA: SignedDelta
    let certificateB: SignedDelta

    init() throws {
        organizer = try SigningKeyPair.generate()
        let venue = VenueID.random()
        policy = VenuePolicy(venue: venue, organizer: AuthorID(organizer.publicKey))
        a = try SigningKeyPair.generate()
        b = try SigningKeyPair.generate()
        certificateA = try AdmissionTests.enroll(a, role: .kiosk, by: organizer, venue: venue)
        certificateB = try AdmissionTests.enroll(b, role: .kiosk, by: organizer, venue: venue)
    }

    var idA: AuthorID { AuthorID(a.publicKey) }
    var idB: AuthorID { AuthorID(b.publicKey) }

    func life(_ me: AuthorID, _ peer: AuthorID, dialed: Bool, retired: Bool = false) -> ConnectionLife {
        ConnectionLife(
            me: me,
            peer: peer,
            dialed: dialed,
            retiredKey: retired,
            organizer: policy.organizer,
            credentials: me == idA ? certificateA : certificateB
        )
    }

    /// The messages among `steps`.
    func sent(_ steps: [ConnectionLife.Step]) -> [SyncMessage] {
        steps.compactMap { if case .send(let message) = $0 { message } else { nil } }
    }

    /// Feeds `message` to `life` and judges credentials as the driver does, with `membership`.
    func deliver(_ message: SyncMessage, to life: inout ConnectionLife, membership: Membership) -> [ConnectionLife.Step]
    {
        var steps = life.received(message)
        if case .judgeCredentials(let first)? = steps.first {
            steps = life.judged(Admission.judge(first, from: life.peer, membership: membership, policy: policy))
        }
        return steps
    }

    @Test func theDialerShowsItsCredentialsFirstAndTheListenerOnlyOnceAdmitted() {
        var dialer = life(idA, idB, dialed: true)
        var listener = life(idB, idA, dialed: false)
        #expect(listener.start().isEmpty)
        let opening = dialer.start()
        #expect(sent(opening) == [.credentials(certificateA)])

        let answer = deliver(.credentials(certificateA), to: &listener, membership: .unknown)
        // A kiosk new to the roster is recorded; the limits go before our credentials go out.
        #expect(
            answer == [
                .recordCertificate(certificateA), .liftHandshakeLimits(rekey: false), .send(.credentials(certificateB)),
                .register(EnrollPayload(kiosk: idA, name: "k", location: "door", role: .kiosk)),
            ]
        )
        #expect(listener.phase == .registering)
        #expect(listener.registered(kept: true) == [.sendRoster, .openSession])
        #expect(listener.phase == .established)

        let known = deliver(.credentials(certificateB), to: &dialer, membership: .enrolled(name: "k", location: "door"))
        #expect(!known.contains { if case .recordCertificate = $0 { true } else { false } })
        #expect(sent(known).isEmpty)
        #expect(dialer.registered(kept: false) == [.close(.duplicate)])
        #expect(dialer.phase == .closed)
    }

    @Test func aStrangerNeverLearnsWhoWeAre() throws {
        var listener = life(idB, idA, dialed: false)
        let stranger = try SigningKeyPair.generate()
        let forged = try AdmissionTests.enroll(stranger, role: .kiosk, by: stranger, venue: policy.venue)
        let steps = deliver(.credentials(forged), to: &listener, membership: .unknown)
        #expect(sent(steps).isEmpty)
        guard case .close(.refused(.notOnRoster))? = steps.last else {
            Issue.record("a forged certificate was not refused: \(steps)")
            return
        }
        #expect(listener.phase == .closed)
        #expect(listener.received(.deltas([certificateA])).isEmpty)

        var other = life(idB, idA, dialed: false)
        #expect(deliver(.ping, to: &other, membership: .unknown) == [.close(.refused(.noCredentials))])
        var ourselves = life(idA, idA, dialed: true)
        #expect(ourselves.start() == [.close(.ourselves)])
    }

    @Test func aRevokedPeerIsShownWhyAndOnlyTheOrganizersDeltasOfItsAppealAreTaken() {
        let evidence = CoreTestKit.log(1, key: organizer)[0]
        let peersOwn = CoreTestKit.log(1, key: a)[0]
        var listener = life(idB, idA, dialed: false)
        let refusal = deliver(
            .credentials(certificateA),
            to: &listener,
            membership: .revoked(watermark: 1, evidence: evidence)
        )
        #expect(refusal == [.send(.revoked(evidence)), .allowAppeal])
        #expect(listener.phase == .awaitingAppeal)
        #expect(listener.received(.deltas([peersOwn, evidence])) == [.close(.revokedPeer)])

        var again = life(idB, idA, dialed: false)
        _ = deliver(.credentials(certificateA), to: &again, membership: .revoked(watermark: 1, evidence: evidence))
        #expect(again.received(.deltas([evidence, peersOwn])) == [.storeAppeal([evidence]), .close(.revokedPeer)])
        #expect(again.phase == .closed)
    }

    @Test func aRevocationAsTheFirstWordIsJudgedByOurStoreAndEndsTheConnection() {
        let evidence = CoreTestKit.log(1, key: organizer)[0]
        var dialer = life(idA, idB, dialed: true)
        _ = dialer.start()
        #expect(
            deliver(.revoked(evidence), to: &dialer, membership: .unknown)
                == [.judgeRevocationOfUs(evidence), .close(.accusedUs)]
        )
    }

    @Test func aRetiredKeyOnlyHandsOverTheNewerKeys() {
        var listener = life(idB, idA, dialed: false, retired: true)
        let steps = deliver(
            .credentials(certificateA),
            to: &listener,
            membership: .enrolled(name: "k", location: "door")
        )
        #expect(
            steps == [
                .liftHandshakeLimits(rekey: true), .send(.credentials(certificateB)), .sendRoster, .sendKeyRevocations,
                .sendCurrentKey, .linger,
            ]
        )
        #expect(listener.phase == .rekeying)
        // Replication is not spoken under a retired key; roster and keys are taken.
        let delta = CoreTestKit.log(1, key: a)[0]
        #expect(listener.received(.deltas([delta])).isEmpty)
        #expect(listener.received(.hello(epoch: "e", heads: [])).isEmpty)
        #expect(listener.received(.roster([certificateA])) == [.learnRoster([certificateA])])
        #expect(
            listener.received(.networkKey(generation: 2, sealed: [1, 2]))
                == [.recordNetworkKey(generation: 2, sealed: [1, 2])]
        )
        #expect(listener.received(.rekey([delta])) == [.recordKeyRevocations([delta]), .close(.rekeyed)])
        #expect(listener.phase == .closed)
    }

    @Test func anEstablishedSessionHandsReplicationToTheCoreAndKeepsTheRestForItself() {
        var dialer = life(idA, idB, dialed: true)
        _ = dialer.start()
        _ = deliver(.credentials(certificateB), to: &dialer, membership: .unknown)
        _ = dialer.registered(kept: true)
        let delta = CoreTestKit.log(1, key: b)[0]
        #expect(dialer.received(.deltas([delta])) == [.toCore(.deltas([delta]))])
        #expect(dialer.received(.ping) == [.toCore(.ping)])
        #expect(dialer.received(.revoked(delta)) == [.judgeRevocationOfUs(delta)])
        #expect(dialer.received(.rekey([delta])) == [.recordKeyRevocations([delta])])
        #expect(dialer.received(.credentials(certificateB)).isEmpty)
        #expect(dialer.received(.roster([certificateA])) == [.learnRoster([certificateA])])
        #expect(dialer.phase == .established)
    }
}
