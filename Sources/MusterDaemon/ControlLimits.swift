/// What a control connection may cost the daemon, by who is on the other end (``ControlPeerRole``).
///
/// Staff are trusted with large requests; every other peer that reaches the socket is the public
/// screen's user, or something escaped from the screen, and gets small lines, few connections and an
/// idle timeout (DESIGN.md, "Limits before trust"). Without them, 64 connections from the screen's
/// user each sending an 8 MiB line without a newline OOM-killed musterd under its unit's
/// `MemoryMax=512M`, and about 2,090 idle connections under `LimitNOFILE=2048` crashed it.
public enum ControlLimits {
    /// Longest request line from staff: an organizer batch of a thousand signed deltas in hex.
    public static let staffLineBytes = 8 * 1024 * 1024
    /// Longest request line from the screen's user. The screen's requests (a lookup, a check-in, a
    /// walk-in's four fields as typed, a 280-character note) fit in 4 KiB, so 16 connections hold
    /// at most 64 KiB of half-sent lines.
    public static let screenLineBytes = 4 * 1024
    /// Connections at once from one user that is not staff. The screen keeps one open (and opens
    /// another when it restarts); a few more cover a badge printed while the next attendee types.
    public static let connectionsPerPeer = 16
    /// Connections at once from anyone, staff included: far below the unit's `LimitNOFILE=2048`,
    /// which the sync side also draws on (64 handshakes, up to 128 dial loops, one socket per session,
    /// the replica's files), so no flood of the control socket can leave the daemon without a
    /// descriptor.
    public static let connections = 256
    /// A connection from a peer that is not staff and has sent no whole request for this long is
    /// closed. The screen asks for the lock four times a second while it waits, and its client
    /// reconnects on its next request, so only a held-open connection notices.
    public static let idleTimeout: Duration = .seconds(60)

    /// The longest request line a peer of `role` may send.
    public static func lineBytes(for role: ControlPeerRole) -> Int {
        role == .staff ? staffLineBytes : screenLineBytes
    }
}
