import MusterCore
import MusterRules
import Testing

@testable import MusterSync

/// What stored revocations do to a kiosk's sessions and to itself, by its own roster.
struct RevocationActionTests {
    typealias Kit = CoreTestKit

    @Test func aRevokedPeerInSessionIsShownItsRevocationAndClosed() throws {
        let (me, peer, absent) = (try Kit.id(), try Kit.id(), try Kit.id())
        let evidence = Kit.log(1, key: try Kit.key())[0]
        let actions = RevocationAction.actions(
            for: [
                RevokePayload(kiosk: peer, watermark: 3, keyGeneration: 1, sealedKeys: []),
                RevokePayload(kiosk: absent, watermark: 0, keyGeneration: 1, sealedKeys: []),
            ],
            me: me,
            inSession: { $0 == peer },
            membership: {
                $0 == me ? .enrolled(name: "me", location: "door") : .revoked(watermark: 3, evidence: evidence)
            }
        )
        #expect(actions == [.close(peer, show: evidence)])
    }

    /// A revocation the store took back in the same batch (not in force) closes the session
    /// without showing anything, and does not stop this kiosk when it names it.
    @Test func onlyARevocationInForceStopsThisKiosk() throws {
        let (me, peer) = (try Kit.id(), try Kit.id())
        let evidence = Kit.log(1, key: try Kit.key())[0]
        let revocations = [
            RevokePayload(kiosk: me, watermark: 1, keyGeneration: 1, sealedKeys: []),
            RevokePayload(kiosk: peer, watermark: 1, keyGeneration: 1, sealedKeys: []),
        ]
        let takenBack = RevocationAction.actions(
            for: revocations,
            me: me,
            inSession: { _ in true },
            membership: { _ in .enrolled(name: "k", location: "door") }
        )
        #expect(takenBack == [.close(peer, show: nil)])
        let inForce = RevocationAction.actions(
            for: revocations + revocations,
            me: me,
            inSession: { _ in true },
            membership: { _ in .revoked(watermark: 1, evidence: evidence) }
        )
        #expect(inForce == [.stop, .close(peer, show: evidence), .close(peer, show: evidence)])
    }
}
