public import MusterCore

/// What the core asks its driver to do, in order.
public enum SyncOutput: Sendable, Equatable {
    /// Send `message` to `peer` (in order with everything else sent to it).
    case send(to: AuthorID, SyncMessage)
    /// Read `range` from the store and send it to `peer` as ``SyncMessage/deltas(_:)`` frames of at most
    /// ``SyncLimits/batchSize`` deltas, in seq order. Deltas the store does not hold are skipped.
    case sendRange(to: AuthorID, SeqRange)
    /// Verify and store these deltas in one transaction, then report with ``SyncInput/stored(_:)``
    /// (same id). The core asks for one group at a time.
    case store(StoreGroup)
    /// Stop reading frames from this peer's session (its deltas wait for the store) until
    /// ``resumeReading(_:)``: the back-pressure on a peer that sends faster than we store.
    case pauseReading(AuthorID)
    case resumeReading(AuthorID)
    /// Read the store's heads and feed them as ``SyncInput/storeHeads(_:)`` (the store cut a chain).
    case readHeads
    /// Read what the store knows of forks (both versions at each cut) and feed it as
    /// ``SyncInput/forkEvidence(_:)`` unless there is none (a session opened).
    case readForkEvidence
    /// Feed ``SyncInput/timerFired(_:)`` at (or after) this monotonic time; replaces an earlier deadline.
    case setTimer(SyncTimer, at: Duration)
    /// Open a session to this kiosk, if an address is known for it (else feed ``SyncInput/openFailed(peer:)``).
    case openSession(AuthorID)
    /// Close the session with this kiosk (the driver then feeds ``SyncInput/sessionClosed(peer:)``).
    case closeSession(AuthorID, CloseReason)

    public enum CloseReason: Sendable, Equatable {
        /// Not heard from within ``SyncLimits/silenceTimeout``.
        case silent
        /// More than ``SyncCore/Configuration/maxQueuedDeltas`` waiting to be written to it.
        case notReading
        /// The active view is full (HyParView): the peer stays in the passive view.
        case viewFull
        /// The peer's hello did not come within ``SyncLimits/helloTimeout``: the session could
        /// never be repaired from (RELIABILITY.md, finding 32).
        case noHello
    }

    /// What this output weighs against the peer's write queue: deltas it carries (a range by its size).
    /// The driver reports the same weight back with ``SyncInput/written(peer:weight:)`` once written.
    public var queueWeight: Int {
        switch self {
        case .send(_, .deltas(let deltas)): deltas.count
        case .sendRange(_, let range): range.count
        default: 0
        }
    }

    /// The peer whose write queue this output goes to, if it is a send.
    public var recipient: AuthorID? {
        switch self {
        case .send(let peer, _), .sendRange(let peer, _): peer
        default: nil
        }
    }
}
