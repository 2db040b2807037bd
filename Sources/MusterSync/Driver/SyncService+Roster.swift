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

/// The roster: certificates learned and passed on.
extension SyncService {
    /// New certificates go to every session but `peer`'s (roster gossip).
    func passOn(_ certificates: [SignedDelta], except peer: AuthorID) async {
        for (other, session) in sessions where other != peer { try? await session.send(.roster(certificates)) }
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
        await passOn(fresh, except: peer)
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
