public import MusterCore

/// One thing a store does for a run, as ``RunJudge`` decided it. A store carries the steps out in
/// order, in its own medium (``Replica`` in its transaction, the simulator's memory store in memory),
/// and notes each in its report with ``IngestReport/note(_:)``, so both say the same of every delta.
public enum RunStep: Sendable, Equatable {
    /// A copy of a delta the store holds: counted.
    case duplicate
    /// A delta refused, with the reason; nothing stored.
    case reject(DeltaRejection)
    /// Keep `evidence` (at most two signed versions) of a kiosk's fork at `at.seq`, each version
    /// unless it is kept already.
    case keepForkEvidence(at: DeltaRef, evidence: [SignedDelta])
    /// The author forked at `at.seq`, lower than any cut before: its chain ends before that seq on
    /// every replica (what this batch stored of it from there is gone again, and revocations it held
    /// there no longer count), and `evidence` goes out with the report.
    case cutChain(at: DeltaRef, evidence: [SignedDelta])
    /// The organizer signed two versions of `at.seq`: keep `evidence` (the version every replica
    /// keeps, then one it beat) in place of what was kept there; `firstSeen` when nothing was.
    case replaceOrganizerEvidence(at: DeltaRef, evidence: [SignedDelta], firstSeen: Bool)
    /// Fork evidence for the report, which the sync layer passes on.
    case reportForkEvidence([SignedDelta])
    /// The organizer's version at `from.seq` won: its chain goes back to before that seq (what this
    /// batch stored of the losing branch, and its revocations, are gone again), and
    /// ``RunPlan/resume`` is judged next.
    case dropOrganizerBranch(from: DeltaRef)
    /// A revoked author's watermark goes down to `to`: the delta offered at the watermark is
    /// another version than the one the revocation names by hash.
    case lowerWatermark(AuthorID, to: UInt64, evidence: SignedDelta)
    /// Store a verified chain after the author's head, in order; the head moves once, to its last.
    case store(StoredRun)
}
