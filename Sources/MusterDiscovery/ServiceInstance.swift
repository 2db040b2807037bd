/// One announcement seen by the browser: a service name as seen on one interface over one protocol.
///
/// Avahi reports the same service once per (interface, protocol) it was seen on, and withdraws
/// each separately, so a peer is gone only when its last instance is. The browse callback's
/// values are kept verbatim because the resolver must be given exactly them.
struct ServiceInstance: Hashable, Sendable {
    /// `AvahiIfIndex`.
    let interface: Int32
    /// `AvahiProtocol` (`AVAHI_PROTO_INET` or `AVAHI_PROTO_INET6`).
    let `protocol`: Int32
    let name: String
    let type: String
    let domain: String
}
