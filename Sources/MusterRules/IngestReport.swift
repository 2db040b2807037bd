public import MusterCore

/// What happened to a batch of deltas offered to the replica.
public struct IngestReport: Sendable {
    /// Newly stored deltas, in the order they were applied (what a sync layer relays onwards).
    public var applied: [SignedDelta] = []
    /// The applied deltas whose own signature this batch checked (the newest of each verified run,
    /// and every ``RunJudge/verifiedStride``-th of a long one): the others are authenticated by the
    /// hash chain up to one of these. A page served to a peer must end on one (see
    /// ``Replica/deltas(of:after:limit:)``), and a sync layer serving pages from memory needs to know which.
    public var signatureChecked: Set<DeltaRef> = []
    /// Deltas the replica already had, byte for byte.
    public var duplicates = 0
    /// Deltas refused, each with the reason. A refused delta also stops the rest of its author's run.
    public var rejected: [DeltaRejection] = []
    /// Deltas stamped further ahead of local time than the bound: stored and counted, but they did
    /// not move the local clock.
    public var clockWarnings: [DeltaRef] = []
    /// The newest timestamp among the applied deltas that were within the clock bound.
    public var newestAcceptedHLC: HLC?
    /// Revocations newly applied by this batch (the daemon stops and wipes itself if it is named).
    public var revocations: [RevokePayload] = []
    /// Forks this batch newly proved (or proved at a lower seq): each cut its author's chain. One
    /// entry per cut, so a log line per entry stays bounded however many copies arrive.
    public var newForks: [DeltaRef] = []
    /// Organizer seqs of which this batch met a second version (``OrganizerVersion/beats(_:_:)``
    /// decided which one every replica keeps). One entry per seq, for the log.
    public var organizerForks: [DeltaRef] = []
    /// Signed proof of forks (two envelopes per forked seq), found or used by this batch, for the
    /// sync layer to pass on so that every replica makes the same cut.
    public var forkEvidence: [SignedDelta] = []
    /// Set when a batch stored in parts (a person's write went between them; see
    /// ``Replica/writeForPerson(_:)``) stopped at a part that could not be stored: the parts before it
    /// were committed and are what this report holds; the rest of the batch was not stored. Thrown
    /// instead when nothing was committed, so a caller's view of the replica never lags what it holds.
    public var stoppedBy: ReplicaError?

    /// Whether the batch changed the roster or the network keys (sessions are re-checked).
    public var changedRoster: Bool { applied.contains { $0.kind == .enroll || $0.kind == .revoke } }

    /// Whether the revocations in force may have changed: new ones applied, or an organizer fork
    /// resolved, which may have dropped a branch's revocations (what they set aside comes back).
    public var mayChangeRevocations: Bool { !revocations.isEmpty || !organizerForks.isEmpty }

    public init() {}
}
