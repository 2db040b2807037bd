import Foundation
import Logging
import MusterCore
import MusterCrypto
import MusterRules
import MusterTime
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Revocations: of this kiosk (judged by our own store), of a peer (its session closed), and a revoked peer's appeal.
extension SyncService {
    /// A peer says we are revoked. Its word is a hint, never an order (DESIGN.md, "Irreversible acts
    /// need the strongest proof"): the signed revocation is judged by our own store like any delta,
    /// so a superseded branch of the organizer's fork or a replayed message changes nothing.
    /// - In force here afterwards: the daemon stops (and wipes only if ``RevocationVerdict`` allows).
    /// - Taken back here (see ``answer(to:)``): we keep serving and hand the peer the organizer's
    ///   delta that took it back, so its store takes it back too.
    /// - Otherwise (signed, naming us, but beyond what we hold): we stop and keep every file.
    func heardRevocation(_ evidence: SignedDelta, on connection: PeerConnection) async {
        guard let payload = replica.verifiedRevocation(evidence), payload.kiosk == me else {
            logger.warning("ignored a revocation that is not signed by the organizer or names another kiosk")
            return
        }
        let (now, bound) = clockNow()
        if let report = try? await ingest([evidence], nowMillis: now, clockBoundMillis: bound).get(),
            !report.applied.isEmpty
        {
            stateVersion.add(1, ordering: .releasing)
            refreshHeads()
            refreshKeyRing()
        }
        if case .revoked? = try? replica.membership(of: me) {
            logger.critical("this kiosk was revoked by the organizer")
            onRevoked("a revocation of this kiosk is in force in its replica")
            return
        }
        if let answer = answer(to: evidence) {
            logger.warning(
                "a peer holds a revocation of this kiosk that no longer counts here; handing over what took it back",
                metadata: ["peer": "\(connection.peer)", "delta": "\(evidence.ref)", "answer": "\(answer.ref)"]
            )
            try? await connection.send(.deltas([answer]))
            return
        }
        logger.critical(
            "a peer showed a revocation of this kiosk that this replica cannot check against its own log yet; stopping, every file kept",
            metadata: ["peer": "\(connection.peer)", "delta": "\(evidence.ref)"]
        )
        onRevoked("a peer showed a signed revocation of this kiosk (\(evidence.ref)) beyond what its replica holds")
    }

    /// The organizer's delta that makes `evidence`, a revocation of this kiosk the store holds no
    /// longer in force, stop counting: our own version of its seq when the organizer's chain forked
    /// there and ours won, or the organizer's revocation of the device that signed it.
    func answer(to evidence: SignedDelta) -> SignedDelta? {
        let held = try? replica.deltaHash(of: evidence.author, seq: evidence.seq)
        if let held, held != Blake2b.hash256(evidence.envelope) {
            guard evidence.author == replica.policy.organizer else { return nil }
            return try? replica.deltas(of: evidence.author, after: evidence.seq - 1, limit: 1)
                .first(where: { $0.seq == evidence.seq })
        }
        guard case .revoked(let watermark, let revocation)? = try? replica.membership(of: evidence.author),
            watermark < evidence.seq, revocation.author == replica.policy.organizer
        else { return nil }
        return revocation
    }

    /// A revoked peer's appeal: the organizer's deltas it carried (``ConnectionLife`` took nothing else).
    func appeal(_ organizers: [SignedDelta], from peer: AuthorID) async {
        let (now, bound) = clockNow()
        guard let report = try? await ingest(organizers, nowMillis: now, clockBoundMillis: bound).get() else {
            return
        }
        logger.notice(
            "a revoked peer handed over the organizer's deltas",
            metadata: ["peer": "\(peer)", "applied": "\(report.applied.count)"]
        )
        guard !report.applied.isEmpty else { return }
        stateVersion.add(1, ordering: .releasing)
        refreshHeads()
        if !report.revocations.isEmpty { await applyRevocations(report.revocations) }
        if !report.forkEvidence.isEmpty { await passOn(report.forkEvidence) }
        refreshKeyRing()
    }

    /// A revocation arrived: the revoked kiosk's sessions end (after it is shown why), the rotated
    /// network key is opened, and if it names this kiosk, the daemon stops.
    func applyRevocations(_ revocations: [RevokePayload]) async {
        refreshKeyRing()
        // A revocation taken back (its device revoked, its branch of an organizer fork dropped)
        // gives back what it had set aside.
        let (now, bound) = clockNow()
        if let restored = try? replica.restoreSetAside(nowMillis: now, clockBoundMillis: bound),
            !restored.applied.isEmpty
        {
            stateVersion.add(1, ordering: .releasing)
            logger.notice(
                "took back deltas a revocation had set aside",
                metadata: ["deltas": "\(restored.applied.count)"]
            )
        }
        refreshHeads()
        let actions = RevocationAction.actions(
            for: revocations,
            me: me,
            inSession: { sessions[$0] != nil },
            membership: { try? replica.membership(of: $0) }
        )
        for action in actions {
            switch action {
            case .stop:
                logger.critical("this kiosk was revoked by the organizer")
                onRevoked("a revocation of this kiosk is in force in its replica")
            case .close(let peer, let show):
                guard let session = sessions[peer] else { continue }
                if let show { try? await session.send(.revoked(show)) }
                logger.notice("closing the session of a revoked kiosk", metadata: ["peer": "\(peer)"])
                session.close()
            }
        }
    }
}
