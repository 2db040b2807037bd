public import MusterCore
public import MusterRules

/// Everything that happens to a kiosk's sync core. Each is handed to ``SyncCore/handle(_:now:)`` with
/// the monotonic time (``MusterTime/TimeSource/uptime``) at which it happened.
public enum SyncInput: Sendable {
    /// A session with `peer` is established: handshake done, credentials admitted. `initiator` is the
    /// kiosk that dialed. The core answers with its hello (or closes it, when the view is full).
    case sessionOpened(peer: AuthorID, initiator: AuthorID)
    /// The session with `peer` ended (closed by either side, failed, or replaced).
    case sessionClosed(peer: AuthorID)
    /// An ``SyncOutput/openSession(_:)`` could not be carried out (no address known, dial failed).
    case openFailed(peer: AuthorID)
    /// A kiosk is known to exist (discovery, static peers, roster): a candidate for the passive view.
    case peerDiscovered(AuthorID)
    /// A decoded message from `peer`. Credentials, roster and revocation messages are the driver's
    /// (they need the roster and keys); the core ignores them.
    case frameReceived(from: AuthorID, SyncMessage)
    /// Deltas written and committed here, in seq order.
    case localCommit([SignedDelta])
    /// The outcome of a ``SyncOutput/store(_:)`` (one group).
    case stored(StoreResult)
    /// The driver wrote (or dropped, when the session ended) queued sends to `peer` weighing `weight`
    /// (the ``SyncOutput/queueWeight`` of the outputs it carried out).
    case written(peer: AuthorID, weight: Int)
    /// The store's heads now, authoritative: replaces what the core believes (after a revocation
    /// truncated a log, or writes that did not come through the core); the answer to
    /// ``SyncOutput/readHeads``.
    case storeHeads([AuthorHead])
    /// The replica's state digest, whenever the driver computed it (sent to peers with our heads).
    case digest(String)
    /// A timer set by ``SyncOutput/setTimer(_:at:)`` is due.
    case timerFired(SyncTimer)
    /// The store proved or met a fork (`IngestReport.forkEvidence`): both signed versions go to
    /// every peer in session that was not sent them yet in this session, so every replica makes the
    /// same cut, and two kiosks that both know never send them back and forth. The driver hands over
    /// the store's heads first (``storeHeads(_:)``): the cut truncated a log.
    case forkEvidence([SignedDelta])
}
