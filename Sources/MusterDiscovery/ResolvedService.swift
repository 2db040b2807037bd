/// What a resolver found for one ``ServiceInstance``, copied out of Avahi's C structures.
///
/// Plain values so the bookkeeping in ``DiscoveryMachine`` and ``PeerClassifier`` can be tested
/// without a daemon.
struct ResolvedService: Equatable, Sendable {
    let instance: ServiceInstance
    /// The address as text, IPv6 link-local with `%interface`.
    let host: String
    /// Whether `host` is IPv4, which is preferred when a peer has both.
    let isIPv4: Bool
    let port: Int
    /// The raw TXT entries (`key=value` bytes).
    let txt: [[UInt8]]
}
