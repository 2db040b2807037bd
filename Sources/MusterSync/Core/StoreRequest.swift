public import MusterCore

/// Deltas the core wants stored (``SyncOutput/store(_:)``).
public struct StoreRequest: Sendable, Equatable {
    /// Echoed in ``StoreResult/id``.
    public let id: UInt64
    public let deltas: [SignedDelta]
    /// The peer they came from.
    public let peer: AuthorID

    public init(id: UInt64, deltas: [SignedDelta], peer: AuthorID) {
        self.id = id
        self.deltas = deltas
        self.peer = peer
    }
}
