/// Limits of the sync protocol.
public enum SyncLimits {
    /// Largest frame on the wire (an encrypted batch of deltas).
    public static let maxFrameBytes: UInt32 = 8 * 1024 * 1024
    /// Deltas per batch when catching a peer up.
    public static let batchSize = 500
    /// A peer silent for this long is declared gone and its session closed: with a heartbeat after
    /// 1.5 s of our silence and the watchdog checking every 250 ms, a frozen peer is gone within 5 s.
    public static let silenceTimeout: Duration = .seconds(4)
    public static let heartbeatInterval: Duration = .milliseconds(1_500)
    /// How often heads are exchanged to repair anything missed (with a peer that already knows our
    /// state and agrees with our digest, nothing is sent).
    public static let antiEntropyInterval: Duration = .seconds(5)
    /// How long a change of our sessions waits to be announced, so that a burst of changes is one
    /// announcement (see ``SyncMessage/sessions(_:)``).
    public static let sessionsAnnouncementDelay: Duration = .milliseconds(20)
    public static let handshakeTimeout: Duration = .seconds(5)
}
