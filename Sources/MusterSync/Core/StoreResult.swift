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
    /// Authors whose run did not follow on the delta the store holds (a broken chain), each with
    /// the lowest seq refused: the two replicas may hold two versions of the seq before it. The
    /// core sends the peer our version of that seq (our head, when the run broke just above it),
    /// so the peer's store sees both and proves the fork (or finds none). For the organizer, whose
    /// chain is never cut, that walks down to the seq where the two chains part.
    public var brokenChains: [AuthorID: UInt64]
    /// Authors whose chain the store cut at a fork (proved now, or earlier): nothing of theirs from
    /// the cut on is ever stored, so the core stops asking for it.
    public var forkedAuthors: Set<AuthorID>
    /// Of ``applied``, the deltas whose own signature the store checked (``IngestReport/signatureChecked``):
    /// a range the core serves from memory must end on one, as a page read from the store does.
    public var signatureChecked: Set<DeltaRef>

    public init(
        id: UInt64,
        applied: [SignedDelta],
        refusedAuthors: Set<AuthorID> = [],
        failed: Bool = false,
        brokenChains: [AuthorID: UInt64] = [:],
        forkedAuthors: Set<AuthorID> = [],
        signatureChecked: Set<DeltaRef> = []
    ) {
        self.id = id
        self.applied = applied
        self.refusedAuthors = refusedAuthors
        self.failed = failed
        self.brokenChains = brokenChains
        self.forkedAuthors = forkedAuthors
        self.signatureChecked = signatureChecked
    }

    /// The result of one request from the replica's report on it (gaps and broken chains count as
    /// refusals to repair; forks and unauthorized deltas are final and are not asked for again).
    public init(
        id: UInt64,
        applied: [SignedDelta],
        rejected: [DeltaRejection],
        failed: Bool = false,
        signatureChecked: Set<DeltaRef> = []
    ) {
        var authors = Set<AuthorID>()
        var broken: [AuthorID: UInt64] = [:]
        var forked = Set<AuthorID>()
        for error in rejected {
            guard let author = error.ref?.author else { continue }
            switch error.code {
            case .gap: authors.insert(author)
            case .brokenChain:
                authors.insert(author)
                let seq = error.ref?.seq ?? 0
                broken[author] = min(broken[author] ?? seq, seq)
            case .fork, .forked: forked.insert(author)
            default: break
            }
        }
        self.init(
            id: id,
            applied: applied,
            refusedAuthors: authors,
            failed: failed,
            brokenChains: broken,
            forkedAuthors: forked,
            signatureChecked: signatureChecked.intersection(applied.lazy.map(\.ref))
        )
    }
}
