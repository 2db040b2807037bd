public import MusterCore

/// Deltas of one peer's frame the core wants stored. Requests wait in the core and go to the store
/// in groups (``StoreGroup``); the outcome of a group is attributed back to each request.
public struct StoreRequest: Sendable, Equatable {
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
