/// One peer in session as `muster status` shows it.
public struct PeerReport: Sendable, Equatable {
    public let state: PeerState
    /// Deltas this kiosk holds that the peer does not (it is behind by this many).
    public let behind: Int
    /// Deltas the peer holds that this kiosk does not.
    public let ahead: Int
    /// Whether the peer's last announced digest equals this kiosk's digest now (nil: not known yet).
    public let digestMatches: Bool?
}
