import MusterCore
import MusterRules

/// What a group's store result means for one of its requests (``SyncCore/attribute(_:to:)``).
struct RequestOutcome: Sendable, Equatable {
    /// Deltas newly stored that this request brought first.
    var applied: [SignedDelta]
    /// Authors whose run was refused for a gap or a broken chain: the core asks for them again.
    var refusedAuthors: Set<AuthorID> = []
    var failed: Bool
    /// Authors whose run did not follow on the delta the store holds (a broken chain), each with
    /// the lowest seq refused: the two replicas may hold two versions of the seq before it. The
    /// core sends the peer our version of that seq (our head, when the run broke just above it),
    /// so the peer's store sees both and proves the fork (or finds none). For the organizer, whose
    /// chain is never cut, that walks down to the seq where the two chains part.
    var brokenChains: [AuthorID: UInt64] = [:]
    /// Authors whose chain the store cut at a fork (proved now, or earlier): nothing of theirs from
    /// the cut on is ever stored, so the core stops asking for it.
    var forkedAuthors: Set<AuthorID> = []
    /// Of ``applied``, the deltas whose own signature the store checked.
    var signatureChecked: Set<DeltaRef>

    /// The outcome from the request's share of the report (gaps and broken chains count as
    /// refusals to repair; forks and unauthorized deltas are final and are not asked for again).
    init(applied: [SignedDelta], rejected: [DeltaRejection], failed: Bool, signatureChecked: Set<DeltaRef>) {
        self.applied = applied
        self.failed = failed
        self.signatureChecked = signatureChecked.intersection(applied.lazy.map(\.ref))
        for error in rejected {
            guard let author = error.ref?.author else { continue }
            switch error.code {
            case .gap: refusedAuthors.insert(author)
            case .brokenChain:
                refusedAuthors.insert(author)
                let seq = error.ref?.seq ?? 0
                brokenChains[author] = min(brokenChains[author] ?? seq, seq)
            case .fork, .forked: forkedAuthors.insert(author)
            default: break
            }
        }
    }
}
