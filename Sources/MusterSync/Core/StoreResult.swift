public import MusterCore
public import MusterStore

/// What storing a ``StoreRequest`` gave (``SyncInput/stored(_:)``).
public struct StoreResult: Sendable, Equatable {
    public let id: UInt64
    /// Deltas newly stored by this request (not ones the store already held).
    public var applied: [SignedDelta]
    /// Authors whose run was refused for a gap or a broken chain: the core asks for them again.
    public var refusedAuthors: Set<AuthorID>
    /// The store failed as a whole (I/O error): nothing was stored; the core asks again later.
    public var failed: Bool

    public init(id: UInt64, applied: [SignedDelta], refusedAuthors: Set<AuthorID> = [], failed: Bool = false) {
        self.id = id
        self.applied = applied
        self.refusedAuthors = refusedAuthors
        self.failed = failed
    }

    /// The result of one request from the replica's report on it (gaps and broken chains count as
    /// refusals to repair; forks and unauthorized deltas are final and are not asked for again).
    public init(id: UInt64, applied: [SignedDelta], rejected: [ReplicaError]) {
        var authors = Set<AuthorID>()
        for error in rejected where error.code == .gap || error.code == .brokenChain {
            if let ref = error.ref { authors.insert(ref.author) }
        }
        self.init(id: id, applied: applied, refusedAuthors: authors)
    }
}
