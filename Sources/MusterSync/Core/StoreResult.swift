public import MusterCore
public import MusterRules

/// What storing a ``StoreGroup`` gave (``SyncInput/stored(_:)``): the store's report, as the core
/// needs it. The core attributes each outcome to the request that brought the delta first.
public struct StoreResult: Sendable, Equatable {
    public let id: UInt64
    /// Deltas newly stored (not ones the store already held).
    public var applied: [SignedDelta]
    /// What the store refused, and why (each names its delta, or none: then it concerns them all).
    public var rejected: [DeltaRejection]
    /// The store failed (I/O error, or stopped part-way): the core asks again later.
    public var failed: Bool
    /// Of ``applied``, the deltas whose own signature the store checked (``IngestReport/signatureChecked``):
    /// a range the core serves from memory must end on one, as a page read from the store does.
    public var signatureChecked: Set<DeltaRef>
    /// Both signed versions of each fork the store proved or met (``IngestReport/forkEvidence``).
    public var forkEvidence: [SignedDelta]
    /// The store may have cut a chain (a fork, a revocation, the organizer's fork resolved): the
    /// core asks for the store's heads (``SyncOutput/readHeads``) before it passes evidence on.
    public var cut: Bool

    public init(
        id: UInt64,
        applied: [SignedDelta],
        rejected: [DeltaRejection] = [],
        failed: Bool = false,
        signatureChecked: Set<DeltaRef> = [],
        forkEvidence: [SignedDelta] = [],
        cut: Bool = false
    ) {
        self.id = id
        self.applied = applied
        self.rejected = rejected
        self.failed = failed
        self.signatureChecked = signatureChecked
        self.forkEvidence = forkEvidence
        self.cut = cut || !forkEvidence.isEmpty
    }

    /// The result of a group from the store's report on it.
    public init(id: UInt64, report: IngestReport) {
        self.init(
            id: id,
            applied: report.applied,
            rejected: report.rejected,
            failed: report.stoppedBy != nil,
            signatureChecked: report.signatureChecked,
            forkEvidence: report.forkEvidence,
            cut: !report.revocations.isEmpty || !report.organizerForks.isEmpty
        )
    }

    /// A group the store could not write at all.
    public static func failed(_ id: UInt64) -> StoreResult { StoreResult(id: id, applied: [], failed: true) }
}
