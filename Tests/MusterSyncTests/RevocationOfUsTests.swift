import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterSync

/// What a kiosk does once its own store has judged a revocation of itself a peer showed it.
struct RevocationOfUsTests {
    let organizer: SigningKeyPair
    let device: SigningKeyPair
    let log: [SignedDelta]

    init() throws {
        organizer = try SigningKeyPair.generate()
        device = try SigningKeyPair.generate()
        log = CoreTestKit.log(3, key: organizer)
    }

    var organizerID: AuthorID { AuthorID(organizer.publicKey) }

    func judge(
        _ evidence: SignedDelta,
        ours: Membership?,
        held: [SignedDelta] = [],
        members: [AuthorID: Membership] = [:]
    ) -> RevocationOfUs {
        RevocationOfUs.judge(
            evidence,
            ours: ours,
            organizer: organizerID,
            delta: { author, seq in held.first { $0.author == author && $0.seq == seq } },
            membership: { members[$0] ?? .unknown }
        )
    }

    @Test func inForceInOurOwnReplicaWeStop() {
        #expect(judge(log[1], ours: .revoked(watermark: 0, evidence: log[1])) == .stop)
    }

    @Test func beyondWhatWeHoldWeStopAndKeepEveryFile() {
        #expect(judge(log[2], ours: .enrolled(name: "k", location: "door")) == .stopKeepingFiles)
        #expect(judge(log[2], ours: nil) == .stopKeepingFiles)
    }

    /// The organizer's chain forked at that seq and our branch won: we hand over our version.
    @Test func aLosingBranchOfAnOrganizerForkIsAnsweredWithTheWinningDelta() throws {
        var signer = DeltaSigner(venue: CoreTestKit.venue, startingLogOf: organizer)
        let notes = (1...3).map {
            DeltaBody.note(NotePayload(campaignID: "c", attendeeKey: "b@example.com", text: "other \($0)"))
        }
        let other = try signer.sign(notes, fromMillis: 9_999)[1]
        #expect(other != log[1])
        let verdict = judge(other, ours: .enrolled(name: "k", location: "door"), held: Array(log.prefix(2)))
        #expect(verdict == .answer(log[1]))
    }

    /// A device's revocation of us after the organizer revoked the device: the organizer's
    /// revocation of the device is the answer; before its watermark, the device's word stands.
    @Test func aRevokedDevicesRevocationIsAnsweredWithTheDevicesOwnRevocation() {
        let deviceLog = CoreTestKit.log(4, key: device)
        let deviceID = AuthorID(device.publicKey)
        let members: [AuthorID: Membership] = [deviceID: .revoked(watermark: 2, evidence: log[0])]
        let ours = Membership.enrolled(name: "k", location: "door")
        #expect(judge(deviceLog[3], ours: ours, members: members) == .answer(log[0]))
        #expect(judge(deviceLog[1], ours: ours, members: members) == .stopKeepingFiles)
    }

    /// Seq 0 is no seq of a log: nothing is looked up below it.
    @Test func aRevocationAtSeqZeroIsNeverLookedUp() throws {
        let evidence = try AdmissionTests.enroll(device, role: .kiosk, by: organizer, venue: CoreTestKit.venue)
        #expect(evidence.seq == 0)
        var asked: [UInt64] = []
        _ = RevocationOfUs.judge(
            evidence,
            ours: nil,
            organizer: organizerID,
            delta: { _, seq in
                asked.append(seq)
                return nil
            },
            membership: { _ in .unknown }
        )
        #expect(asked.isEmpty)
    }
}
