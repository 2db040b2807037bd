/// What ``AvahiDiscovery`` tells its consumer.
///
/// Events are edges, not levels: `appeared` is sent when a peer is first resolved and again only
/// when what is known about it changes (a new address, port or TXT record); `disappeared` once,
/// when its last announcement is withdrawn or can no longer be resolved.
public enum DiscoveryEvent: Sendable, Equatable {
    /// A peer of this venue was resolved, or its address or TXT record changed.
    case appeared(DiscoveredPeer)
    /// The peer with this service name withdrew its announcement or stopped answering.
    case disappeared(serviceName: String)
    /// avahi-daemon (or the system D-Bus) is missing, died or is restarting; the reason is for the log.
    ///
    /// Peers already reported are *not* withdrawn: the design keeps syncing with known peers
    /// while discovery is down. When the daemon is back and the browse settles, peers that are
    /// no longer announced get their `disappeared`.
    case daemonUnavailable(String)
    /// avahi-daemon is reachable again (or for the first time): this kiosk is published and browsing.
    case daemonAvailable
}
