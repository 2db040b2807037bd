public import MusterCore
import MusterCrypto

/// The verdict on one author's run of a batch, as a pure function: the run, the author's record and
/// a reader of what the store holds in, a ``RunPlan`` out. ``Replica`` executes the plan in its
/// transaction, the simulator's memory store in memory, so both stores judge every delta alike
/// (DESIGN.md, "One judgement, two stores"); a differential test feeds both the same histories.
///
/// A run is judged in two parts. The deltas at or below the author's head (``judgeHeld(_:in:cut:plan:)``)
/// are copies (duplicates), or second versions: a kiosk's fork, which cuts its chain, or the
/// organizer's, which one rule resolves (``OrganizerVersion``). The deltas above the head
/// (``judgeFresh(_:cut:plan:)``) are cut at the first gap, at the fork cut and at a revocation's
/// watermark, verified as a chain (``ChainVerifier``) and authorized, decoded and checked in order up
/// to the first refusal.
///
/// What the steps write never changes what the judge reads later in the same run: the judge keeps the
/// cut it decided (``HeldCut``), and everything it reads after a cut lies below it. The one judgement
/// that needs the store as its steps left it, the organizer's chain after a winning version, is asked
/// for again (``RunPlan/resume``).
public struct RunJudge<Reader: RunReader> {
    public let policy: VenuePolicy
    /// The author's record before the run.
    public let record: AuthorRecord
    /// The whole batch the run came in (what its sender knows): evidence the sender showed in full
    /// is not sent back to it.
    public let offered: [SignedDelta]
    /// An organizer submission (atomic), not a peer's batch: a version of a seq the organizer's
    /// chain already has is refused (the `muster` that signed it signs again on the head), never
    /// resolved against the one held, which its own command acknowledged.
    public let submitted: Bool
    /// The store's clock, for stamps too far ahead of it.
    public let clock: IngestClock
    public let reader: Reader

    public init(
        policy: VenuePolicy,
        record: AuthorRecord,
        offered: [SignedDelta],
        submitted: Bool,
        clock: IngestClock,
        reader: Reader
    ) {
        self.policy = policy
        self.record = record
        self.offered = offered
        self.submitted = submitted
        self.clock = clock
        self.reader = reader
    }

    /// How often a long run has its own signatures checked on ingest (see
    /// ``Replica/deltas(of:after:limit:)``): at most this many deltas lie between two checked ones,
    /// well under a sync message's 2,000.
    public static var verifiedStride: Int { 500 }

    /// The plan for `run`: one author's deltas, one per seq, ascending (``IngestBatch/runs(_:first:)``).
    public func judge(_ run: [SignedDelta]) throws(Reader.Failure) -> RunPlan {
        var plan = RunPlan()
        var cut = HeldCut(seq: record.forkCut)
        var fresh: [SignedDelta] = []
        for delta in run {
            if delta.seq > record.head.seq {
                fresh.append(delta)
                continue
            }
            // Cut by a fork this run may itself have proved: nothing from there on is evidence.
            if let seq = cut.seq, delta.seq >= seq { continue }
            if let winner = try judgeHeld(delta, in: run, cut: &cut, plan: &plan) {
                plan.resume = winner
                return plan
            }
        }
        try judgeFresh(fresh, cut: cut, plan: &plan)
        return plan
    }

    /// A delta at a seq the store holds: a copy is a duplicate, another version a fork.
    /// - Returns: the organizer's chain from this version, when it won a fork.
    private func judgeHeld(
        _ delta: SignedDelta,
        in run: [SignedDelta],
        cut: inout HeldCut,
        plan: inout RunPlan
    ) throws(Reader.Failure) -> [SignedDelta]? {
        let author = record.head.author
        if let held = try reader.heldHash(author, seq: delta.seq), held == Blake2b.hash256(delta.envelope) {
            plan.steps.append(.duplicate)
            return nil
        }
        guard author == policy.organizer else {
            try judgeKioskFork(delta, cut: &cut, plan: &plan)
            return nil
        }
        guard !submitted else {
            plan.reject(
                DeltaRejection(.fork, "the organizer's chain already has seq \(delta.seq) here", ref: delta.ref)
            )
            return nil
        }
        guard try judgeOrganizerVersion(delta, plan: &plan) else { return nil }
        // This version won: the chain goes back to before it, so it and what of the run follows on it
        // are stored next.
        return OrganizerVersion.chain(from: delta, in: run)
    }
}

/// The fork cut as the judge of one run knows it: the record's, or a lower one the run proved, with the
/// evidence it decided to keep there (what the store would read back at that seq after the step).
struct HeldCut {
    var seq: UInt64?
    var evidence: [SignedDelta]?
}
