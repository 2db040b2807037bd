public import MusterCore
public import MusterStore
public import MusterSync

/// What the simulator tells one kiosk's replication logic: the inputs of the sans-I/O sync core.
public enum ReplicationInput {
    /// The kiosk (re)started with these heads in its replica.
    case started(heads: [AuthorHead], epoch: String)
    /// A session with `peer` is established (`dialed`: this side dialed).
    case sessionOpened(peer: AuthorID, dialed: Bool)
    /// The session with `peer` ended (closed by either side, silent, or replaced).
    case sessionClosed(peer: AuthorID)
    /// A dial to `peer` failed (it is down or cut off, and the handshake deadline passed).
    case openFailed(peer: AuthorID)
    case frame(SyncMessage, from: AuthorID)
    /// The kiosk committed one of its own deltas (a check-in, acknowledged to the attendee).
    case localCommit([SignedDelta])
    /// A batch the logic asked to store (``ReplicationOutput/store(id:_:from:)``) was stored.
    case stored(id: UInt64, IngestReport, from: AuthorID)
    case timerFired(UInt64)
}

/// What one kiosk's replication logic asks the simulator to do: the outputs of the core.
public enum ReplicationOutput {
    case send(SyncMessage, to: AuthorID)
    /// Store deltas received from `from`; the result comes back as ``ReplicationInput/stored(id:_:from:)``.
    case store(id: UInt64, [SignedDelta], from: AuthorID)
    /// Fire ``ReplicationInput/timerFired(_:)`` with `id` at the kiosk's monotonic time `at`
    /// (setting an id again replaces it).
    case setTimer(id: UInt64, at: Duration)
    case cancelTimer(id: UInt64)
    case open(AuthorID)
    /// Close the session; the simulator then feeds ``ReplicationInput/sessionClosed(peer:)`` to both ends.
    case close(AuthorID)
}

/// One kiosk's replication logic as the simulator drives it: the sans-I/O sync core
/// (``CoreReplication``), what `musterd` runs. A protocol so that a candidate change to the
/// protocol can be run beside it on the same seeds.
///
/// `now` is the kiosk's own monotonic clock (skewed in rate when clock skew is on). Reads of the
/// replica (heads, a range to send) go through `store` directly, as the real driver's do.
public protocol Replication {
    mutating func handle(_ input: ReplicationInput, now: Duration, store: any KioskStore) -> [ReplicationOutput]
}
