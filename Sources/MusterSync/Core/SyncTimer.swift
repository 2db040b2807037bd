/// The core's timers. The driver keeps at most one deadline per timer (a new ``SyncOutput/setTimer(_:at:)``
/// replaces the old one) and feeds ``SyncInput/timerFired(_:)`` once the deadline has passed.
///
/// Firing late is harmless; firing a timer that was not set, or twice, is too (the core checks its own
/// deadlines).
public enum SyncTimer: Sendable, Hashable, CaseIterable {
    /// Heartbeats and liveness of every session (pings when we were silent, closes silent peers).
    case liveness
    /// Periodic head exchange that repairs anything missed (anti-entropy).
    case antiEntropy
    /// Flushes queued lazy announcements (``SyncMessage/ihave(_:)``) to lazy peers.
    case lazyPush
    /// Checks announced deltas that did not arrive by eager push, and grafts a peer that has them.
    case graft
    /// Checks repair requests that made no progress, and moves them to another peer.
    case repair
    /// Tells every peer our sessions, shortly after they changed.
    case announceSessions
    /// Membership upkeep: fills the active view from the passive one (HyParView).
    case membership
    /// Sends the deltas held back for eager peers beyond the full mesh (``SyncCore/Configuration/eagerLinger``).
    /// Last, so the simulator's timer numbers (their index here) and event-log hashes stay as they were.
    case eagerPush
}
