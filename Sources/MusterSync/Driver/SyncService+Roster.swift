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

/// The roster: the verdict on a peer's credentials carried out, certificates learned and passed on.
extension SyncService {
    /// Carries out the roster's verdict on the peer's credentials (``Admission``). Returns the
    /// enrollment of an admitted kiosk; nil for every other verdict (the connection then ends).
    func admit(
        _ peer: AuthorID,
        credentials: SyncMessage,
        connection: PeerConnection,
        address: String
    ) async -> EnrollPayload? {
        let metadata: Logger.Metadata = ["peer": "\(peer)", "address": "\(address)"]
        guard let membership = try? replica.membership(of: peer) else {
            logger.warning("refused a peer: cannot read the roster", metadata: metadata)
            return nil
        }
        switch Admission.judge(credentials, from: peer, membership: membership, policy: replica.policy) {
        case .accusesUs(let evidence):
            await heardRevocation(evidence, on: connection)
            return nil
        case .showRevocation(let evidence):
            logger.warning("refused a revoked kiosk", metadata: metadata)
            try? await connection.send(.revoked(evidence))
            return nil
        case .refuse(.noCredentials):
            logger.warning("refused a peer without credentials", metadata: metadata)
            return nil
        case .refuse(.organizerDevice):
            logger.warning("refused an organizer device's key as a peer", metadata: metadata)
            return nil
        case .refuse(.notOnRoster(let reason)):
            logger.warning(
                "refused a kiosk that is not on the roster",
                metadata: metadata.merging(["reason": "\(reason)"]) { $1 }
            )
            return nil
        case .admit(let payload, let record):
            guard let record else { return payload }
            do {
                try replica.admitCertificate(record, for: peer)
            } catch {
                logger.warning("refused a kiosk: cannot record its certificate", metadata: metadata)
                return nil
            }
            logger.notice("new kiosk on the roster", metadata: ["peer": "\(peer)"])
            for (other, session) in sessions where other != peer { try? await session.send(.roster([record])) }
            return payload
        }
    }

    /// Certificates a peer knows: record the valid ones, pass new ones on.
    func learn(_ certificates: [SignedDelta], from peer: AuthorID) async {
        var fresh: [SignedDelta] = []
        for (certificate, kiosk) in roster.unknown(certificates) {
            guard (try? replica.membership(of: kiosk)) == .unknown else {
                roster.know(kiosk)
                continue
            }
            guard (try? replica.admitCertificate(certificate, for: kiosk)) != nil else { continue }
            roster.know(kiosk)
            fresh.append(certificate)
        }
        guard !fresh.isEmpty else { return }
        for (other, session) in sessions where other != peer {
            try? await session.send(.roster(fresh))
        }
    }

    /// Before an organizer device's first deltas go out, its certificate goes to every peer in
    /// session (later sessions get it with the roster at their start): a peer that held neither
    /// would refuse the deltas as from a stranger.
    func announceDevices(of deltas: [SignedDelta]) async {
        var fresh: [SignedDelta] = []
        for device in roster.devicesToAnnounce(in: deltas) {
            guard let certificate = try? replica.certificate(of: device) else { continue }
            roster.announce(device)
            fresh.append(certificate)
        }
        guard !fresh.isEmpty else { return }
        for session in sessions.values { try? await session.send(.roster(fresh)) }
    }
}
