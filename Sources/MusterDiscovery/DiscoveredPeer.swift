/// A kiosk of this venue that announced `_muster._tcp` on the LAN and was resolved to an address.
///
/// Discovery is a hint, not an identity: anyone on the LAN can announce anything, so nothing here
/// is trusted. The sync layer connects to `host:port` and authenticates the peer with its long-term
/// key and the venue network key; `fingerprint` only lets it skip a connection it already has.
/// Text fields come from the network: sanitize them (`TerminalText`) before they reach a screen.
///
/// Only discovery makes these (tests, through `@testable import`): a peer comes from the LAN.
public struct DiscoveredPeer: Sendable, Hashable {
    /// The mDNS service instance name, e.g. `muster-3f2a-91c0-5b7e-0d14`; the key of ``DiscoveryEvent``.
    public let serviceName: String
    /// The resolved address as text: IPv4 when there is one, else IPv6 (link-local ones carry
    /// `%interface`, since without it they cannot be connected to).
    public let host: String
    public let port: Int
    /// Lowercase hex venue id from TXT `venue=`; always this kiosk's own venue.
    public let venueID: String
    /// The peer's key fingerprint from TXT `fp=` (lowercase); never this kiosk's own.
    public let fingerprint: String
    /// The sync protocol version from TXT `v=`; the sync layer decides what it can speak.
    public let protocolVersion: Int
}
