/// One peer in session, as the daemon sees it (for `muster status`).
public struct PeerDetail: Codable, Sendable, Equatable {
    public var key: String
    public var name: String
    public var location: String
    public var address: String
    public var lastSeenMillis: UInt64
    /// Deltas this kiosk holds that the peer lacks.
    public var behind: Int
    /// Deltas the peer holds that this kiosk lacks.
    public var ahead: Int
    /// Whether the peer's last announced digest equals this kiosk's (nil: not announced yet).
    public var digestMatches: Bool?
    /// Deltas the peer sent in this session, and how many this kiosk already held (nil from a
    /// daemon older than 0.5).
    public var deltasReceived: Int?
    public var copiesReceived: Int?

    public init(
        key: String,
        name: String,
        location: String,
        address: String,
        lastSeenMillis: UInt64,
        behind: Int,
        ahead: Int,
        digestMatches: Bool?,
        deltasReceived: Int? = nil,
        copiesReceived: Int? = nil
    ) {
        self.deltasReceived = deltasReceived
        self.copiesReceived = copiesReceived
        self.key = key
        self.name = name
        self.location = location
        self.address = address
        self.lastSeenMillis = lastSeenMillis
        self.behind = behind
        self.ahead = ahead
        self.digestMatches = digestMatches
    }
}
