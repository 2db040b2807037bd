import ServiceLifecycle
import Synchronization

/// The daemon's way out when a revocation of this kiosk comes into force while it runs: the sync layer
/// reports it (possibly before the service group exists), the group shuts down gracefully, and the
/// daemon then judges the revocation (``Daemon/actOnRevocation(_:hint:peersHold:)``) with every service
/// stopped.
final class RevocationShutdown: Sendable {
    private let state = Mutex<(group: ServiceGroup?, reason: String?)>((nil, nil))

    /// Why this kiosk was revoked, once it was.
    var reason: String? { state.withLock { $0.reason } }

    /// The first revocation heard: the group (if running) shuts down. Later ones change nothing.
    func revoked(_ reason: String) {
        let group = state.withLock { state -> ServiceGroup? in
            guard state.reason == nil else { return nil }
            state.reason = reason
            return state.group
        }
        if let group { Task { await group.triggerGracefulShutdown() } }
    }

    /// The group to shut down; shut down at once when a revocation came before it existed.
    func attach(_ group: ServiceGroup) {
        let early = state.withLock { state -> Bool in
            state.group = group
            return state.reason != nil
        }
        if early { Task { await group.triggerGracefulShutdown() } }
    }
}
