import Logging

extension DiscoveryMachine {
    /// The client states that matter here (`AvahiClientState`).
    enum ClientState: Equatable, Sendable {
        /// Waiting for avahi-daemon to appear on the bus (`AVAHI_CLIENT_CONNECTING`).
        case connecting
        /// The daemon is (re)registering its host name (`AVAHI_CLIENT_S_REGISTERING`).
        case registering
        /// The daemon's host name collided (`AVAHI_CLIENT_S_COLLISION`).
        case collision
        /// Publishing and browsing are possible (`AVAHI_CLIENT_S_RUNNING`).
        case running
        /// The client is dead, e.g. the daemon exited (`AVAHI_CLIENT_FAILURE`); the reason text.
        case failure(String)
    }

    /// The entry group states that matter here (`AvahiEntryGroupState`).
    enum GroupState: Equatable, Sendable {
        case uncommitted
        case registering
        case established
        /// Another host announces the same service name.
        case collision
        case failure(String)
    }

    /// What the I/O layer must do, in order.
    enum Action: Equatable, Sendable {
        /// Create the entry group if needed, reset it, add the service under this name, commit.
        case publish(serviceName: String)
        /// Reset the entry group (the daemon is re-registering its host name).
        case withdraw
        /// Create the `_muster._tcp` browser.
        case browse
        /// Start a resolver for this instance.
        case resolve(ServiceInstance)
        /// Free this instance's resolver.
        case stopResolving(ServiceInstance)
        /// Free the entry group, the browser and every resolver: their daemon-side objects are gone.
        case dropAvahiObjects
        /// Free the client and make a new one after the backoff.
        case reconnect
        /// The client reached `RUNNING`: a reconnect still armed is cancelled, and the next failure
        /// starts the backoff from the beginning.
        case resetBackoff
        case emit(DiscoveryEvent)
        case log(Logger.Level, String)
    }

    /// What is known about one instance.
    enum Resolution: Equatable, Sendable {
        case peer(DiscoveredPeer, isIPv4: Bool)
        /// Resolved, but not a peer (own, other venue, malformed).
        case ignored
        /// The resolver gave up (the service does not answer).
        case failed
    }
}
