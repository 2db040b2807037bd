public import MusterCore

/// The part of a run that is stored (``RunStep/store(_:)``): a chain verified after the author's head,
/// each delta authorized and decoded, up to the first one refused.
public struct StoredRun: Sendable, Equatable {
    /// What to append, in order.
    public var deltas: [PlannedDelta] = []
    /// The delta that stopped the run, if one did.
    public var refusal: DeltaRejection?
    /// The run stopped at a refusal, and the last delta stored (authenticated through the chain only)
    /// has a valid signature of its own: mark it checked. Pages served to peers end on a delta whose
    /// own signature was checked, or nothing of this run could ever be passed on (found by the
    /// Byzantine simulator: a liar's refused delta after honest-looking ones split the venue).
    public var checkLastSignature = false

    public init() {}
}

/// One delta of a ``StoredRun``, with what its store needs: its decoded form, its hash, whether its own
/// signature was checked, and how far its stamp runs ahead of the store's clock.
public struct PlannedDelta: Sendable, Equatable {
    public let delta: SignedDelta
    public let decoded: Delta
    public let hash: [UInt8]
    /// Its own signature verified (the newest of the run, or one every ``RunJudge/verifiedStride``).
    public let verified: Bool
    /// How far the stamp lies ahead of the local clock, when beyond the clock bound: stored, warned
    /// of, and not allowed to move the local clock.
    public let aheadMillis: UInt64?
}
