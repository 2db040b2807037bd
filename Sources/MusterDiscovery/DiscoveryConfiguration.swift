/// What this kiosk announces on the LAN and which announcements it accepts.
///
/// Everything here is public by design: it goes out in clear text in mDNS packets. Never put a
/// secret (the network key, a private key) in it.
public struct DiscoveryConfiguration: Sendable {
    /// The mDNS instance name to publish, at most 63 bytes of UTF-8. It must be unique per kiosk;
    /// the default `muster-<fingerprint>` is. If another host already uses it, Avahi's alternative
    /// name (`muster-… #2`) is published instead.
    public var serviceName: String
    /// The TCP port peers connect to for sync.
    public var port: Int
    /// The venue id as hex (see `VenueID.hex`); services of any other venue are ignored.
    public var venueID: String
    /// This kiosk's key fingerprint; services announcing it are this kiosk itself and are ignored.
    public var fingerprint: String
    /// The sync protocol version announced as TXT `v=`.
    public var protocolVersion: Int

    /// - Parameter serviceName: defaults to ``defaultServiceName(fingerprint:)``.
    public init(
        serviceName: String? = nil,
        port: Int,
        venueID: String,
        fingerprint: String,
        protocolVersion: Int
    ) {
        self.serviceName = serviceName ?? Self.defaultServiceName(fingerprint: fingerprint)
        self.port = port
        self.venueID = venueID
        self.fingerprint = fingerprint
        self.protocolVersion = protocolVersion
    }

    /// `muster-<fingerprint>`: unique per kiosk, stable across restarts (so peers' caches stay
    /// right), and readable in `avahi-browse`.
    public static func defaultServiceName(fingerprint: String) -> String {
        "muster-\(fingerprint)"
    }
}
