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
    /// A peer says we are revoked: our own store judges the revocation like any delta, and
    /// ``RevocationOfUs`` says what follows.
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
        let replica = self.replica
        let verdict = RevocationOfUs.judge(
            evidence,
            ours: try? replica.membership(of: me),
            organizer: replica.policy.organizer,
            delta: { author, seq in
                try? replica.deltas(of: author, after: seq - 1, limit: 1).first(where: { $0.seq == seq })
            },
            membership: { try? replica.membership(of: $0) }
        )
        switch verdict {
        case .stop:
            logger.critical("this kiosk was revoked by the organizer")
            onRevoked("a revocation of this kiosk is in force in its replica")
        case .answer(let answer):
            logger.warning(
                "a peer holds a revocation of this kiosk that no longer counts here; handing over what took it back",
                metadata: ["peer": "\(connection.peer)", "delta": "\(evidence.ref)", "answer": "\(answer.ref)"]
            )
            try? await connection.send(.deltas([answer]))
        case .stopKeepingFiles:
            logger.critical(
                "a peer showed a revocation of this kiosk that this replica cannot check against its own log yet; stopping, every file kept",
                metadata: ["peer": "\(connection.peer)", "delta": "\(evidence.ref)"]
            )
            onRevoked(
                "a peer showed a signed revocation of this kiosk (\(evidence.ref)) beyond what its replica holds"
            )
        }
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
        if report.mayChangeRevocations { await applyRevocations(report.revocations) }
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
