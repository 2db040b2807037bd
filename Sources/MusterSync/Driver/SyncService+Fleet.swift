import MusterCore
import MusterRules
import ServiceLifecycle
import Synchronization

/// The fleet's statuses (``KioskStatus``): this kiosk's own, signed every ``SyncLimits/statusInterval``
/// and sent to every peer that reads statuses; the others', verified, kept and passed on.
extension SyncService {
    /// What a peer's message says for the fleet: an acknowledgement shows it reads statuses (it is
    /// sent every status held then), and statuses it brings are kept and passed on.
    nonisolated func noteFleet(_ message: SyncMessage, from peer: AuthorID) {
        switch message {
        case .heads(let heads) where SyncCore.isAcknowledgement(heads, to: me):
            guard fleet.withLock({ $0.reads(peer) }) else { return }
            Task { await self.sendStatuses(fleet.withLock { $0.signed }, to: [peer]) }
        case .status(let statuses):
            let fresh = take(statuses)
            let firstTime = fleet.withLock { $0.reads(peer) }
            Task {
                if firstTime { await self.sendStatuses(fleet.withLock { $0.signed }, to: [peer]) }
                await self.sendStatuses(fresh, to: self.statusReaders(except: peer))
            }
        default:
            break
        }
    }

    /// The statuses signed by an enrolled kiosk of this venue and newer than the ones held; the
    /// rest (forged, another venue's, a stranger's, our own, older) are dropped.
    nonisolated func take(_ statuses: [SignedKioskStatus]) -> [SignedKioskStatus] {
        let venue = replica.policy.venue
        var fresh: [SignedKioskStatus] = []
        for signed in statuses {
            guard let status = signed.verified(venue: venue), status.kiosk != me,
                case .enrolled? = try? replica.membership(of: status.kiosk)
            else { continue }
            if fleet.withLock({ $0.take(status, signed: signed) }) { fresh.append(signed) }
        }
        return fresh
    }

    func statusReaders(except peer: AuthorID? = nil) -> [AuthorID] {
        let readers = fleet.withLock { $0.readers }
        return sessions.keys.filter { $0 != peer && readers.contains($0) }
    }

    func sendStatuses(_ statuses: [SignedKioskStatus], to peers: [AuthorID]) async {
        guard !statuses.isEmpty else { return }
        for peer in peers { try? await sessions[peer]?.send(.status(statuses)) }
    }

    /// Takes this kiosk's status now and, when it is news after `previous` (the last one sent), signs
    /// it and sends it to every peer that reads statuses. Returns the last one sent.
    func publishOwnStatus(after previous: KioskStatus?) async -> KioskStatus {
        let (printer, freeDisk) = describeSelf()
        let status = KioskStatus(
            kiosk: me,
            printer: printer,
            freeDiskBytes: freeDisk,
            signedMillis: time.wallMillis
        )
        let refresh = UInt64(SyncLimits.statusRefresh.components.seconds) * 1_000
        if let previous, !status.isNews(after: previous, refreshMillis: refresh) { return previous }
        let signed = status.signed(by: keyPair, venue: replica.policy.venue)
        _ = fleet.withLock { $0.take(status, signed: signed) }
        await sendStatuses([signed], to: statusReaders())
        return status
    }

    /// This kiosk's status, taken every ``SyncLimits/statusInterval`` until the service stops, and
    /// sent when it is news.
    nonisolated func statusLoop() async {
        var sent: KioskStatus?
        while !Task.isShuttingDownGracefully {
            sent = await publishOwnStatus(after: sent)
            try? await cancelWhenGracefulShutdown { try await self.time.sleep(for: SyncLimits.statusInterval) }
        }
    }

    /// Every kiosk's newest status this kiosk holds, its own included (`muster fleet`).
    public nonisolated func fleetStatuses() -> [KioskStatus] {
        fleet.withLock { $0.statuses.values.map(\.status) }
    }
}
