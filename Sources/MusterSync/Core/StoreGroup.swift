public import MusterCore

/// One group commit the core asks for (``SyncOutput/store(_:)``): the waiting requests of every
/// session, up to ``SyncCore/Configuration/groupCommitDeltas`` deltas, in arrival order, as one
/// transaction. At most one group is under way: what arrives meanwhile joins the next one, so a
/// kiosk fed one check-in at a time by many peers pays one commit per group, not per check-in.
public struct StoreGroup: Sendable, Equatable {
    /// Echoed in ``StoreResult/id``.
    public let id: UInt64
    /// The requests' deltas, in order (a delta may appear twice, from two peers).
    public let deltas: [SignedDelta]

    public init(id: UInt64, deltas: [SignedDelta]) {
        self.id = id
        self.deltas = deltas
    }
}
