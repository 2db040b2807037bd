public import MusterCore
import MusterCrypto
public import MusterRules

/// Ingest in memory: the runs of a batch judged by ``RunJudge``, as `Replica.ingest` judges them, and each
/// plan carried out on ``MemoryState``.
extension MemoryStore {
    public func ingest(_ deltas: [SignedDelta], nowMillis: UInt64) throws(ReplicaError) -> IngestReport {
        try ingest(deltas, nowMillis: nowMillis, submitted: false)
    }

    /// - Parameter submitted: an organizer's submission: all or nothing, its first refusal thrown (as
    ///   `Replica.ingest(_:nowMillis:clockBoundMillis:atomic:durable:)` with `atomic`).
    public func ingest(
        _ deltas: [SignedDelta],
        nowMillis: UInt64,
        submitted: Bool
    ) throws(ReplicaError) -> IngestReport {
        let (runs, planned) = IngestBatch.plan(deltas, first: policy.organizer)
        var report = planned
        // Kept only for a submission: holding a copy makes the first change copy every log.
        let before = submitted ? state : nil
        let clock = IngestClock(nowMillis: nowMillis, boundMillis: ReplicaStore.clockBoundMillis)
        for run in runs {
            ingestRunToEnd(run, offered: deltas, submitted: submitted, clock: clock, into: &report)
            if let before, let first = report.rejected.first {
                state = before
                throw ReplicaError(first)
            }
        }
        return report
    }

    /// Checks a certificate as ``Replica/admitCertificate(_:for:)`` does, and puts its kiosk on the roster.
    public func admitCertificate(_ certificate: SignedDelta, for kiosk: AuthorID) throws(ReplicaError) {
        let payload = try EnrollmentCertificate.verify(certificate, for: kiosk, policy: policy)
        state.enroll(payload, certificateHLC: certificate.hlc, policy: policy, signature: signatureVerifies)
    }

    /// One run, and again each organizer chain that won a fork on the way (``RunPlan/resume``).
    private func ingestRunToEnd(
        _ run: [SignedDelta],
        offered: [SignedDelta],
        submitted: Bool,
        clock: IngestClock,
        into report: inout IngestReport
    ) {
        var pending: [SignedDelta]? = run
        var submission = submitted
        while let current = pending, let author = current.first?.author {
            let judge = RunJudge(
                policy: policy,
                record: state.record(of: author, policy: policy),
                offered: offered,
                submitted: submission,
                clock: clock,
                reader: MemoryRunReader(store: self)
            )
            let plan = judge.judge(current)
            for step in plan.steps {
                execute(step)
                report.note(step)
            }
            pending = plan.resume
            submission = false
        }
    }

    /// Carries out one step of a run's plan in memory.
    private func execute(_ step: RunStep) {
        switch step {
        case .duplicate, .reject, .reportForkEvidence:
            return
        case .keepForkEvidence(let ref, let evidence):
            var kept = state.evidence[ref] ?? []
            for proof in evidence where !kept.contains(where: { $0.envelope == proof.envelope }) { kept.append(proof) }
            state.evidence[ref] = kept
        case .cutChain(let ref, _):
            state.forkCuts[ref.author] = min(state.forkCuts[ref.author] ?? .max, ref.seq)
            dropChain(of: ref.author, from: ref.seq)
        case .replaceOrganizerEvidence(let ref, let evidence, _):
            state.evidence[ref] = evidence
        case .dropOrganizerBranch(let ref):
            dropChain(of: ref.author, from: ref.seq)
        case .lowerWatermark(let author, let watermark, let evidence):
            state.recordRevocation(author, watermark: watermark, hash: nil, evidence: evidence)
        case .store(let run):
            store(run)
        }
    }

    /// Drops `author`'s chain from `seq` on; the revocations it held are derived again without them
    /// (`Replica.dropChain`).
    private func dropChain(of author: AuthorID, from seq: UInt64) {
        let dropsRevocations = state.holdsRevocation(of: author, after: seq - 1)
        state.truncate(author, after: seq - 1, signature: signatureVerifies)
        if dropsRevocations { state.rederiveRevocations(policy: policy, signature: signatureVerifies) }
    }

    /// Appends a verified run in order, applying the revocations in it.
    private func store(_ run: StoredRun) {
        for (index, delta) in run.deltas.enumerated() {
            state.append(MemoryEntry(delta: delta, hash: run.hashes[index], verified: run.verified[index]))
            if let payload = run.revocation(at: index) {
                state.applyRevocation(delta, payload: payload, policy: policy, signature: signatureVerifies)
            }
        }
        if run.checkLastSignature, let last = run.deltas.last {
            let index = Int(last.seq - 1)
            state.logs[last.author]?[index].verified = true
        }
    }

    func signatureVerifies(_ delta: SignedDelta) -> Bool { signatures.verifies(delta) }
}

/// What ``RunJudge`` reads of a memory store. It reads through the store rather than holding a copy of
/// its state: a copy alive while the plan is carried out would make the first change copy every log.
struct MemoryRunReader: RunReader {
    typealias Failure = Never
    let store: MemoryStore

    func held(_ author: AuthorID, seq: UInt64) -> HeldDelta? {
        store.state.held(author, seq: seq).map { HeldDelta(delta: $0.delta, hash: $0.hash) }
    }

    func forkEvidence(of author: AuthorID, seq: UInt64) -> [SignedDelta] {
        store.state.evidence[DeltaRef(author: author, seq: seq)] ?? []
    }

    func signatureVerifies(_ delta: SignedDelta) -> Bool { store.signatureVerifies(delta) }

    func decode(_ delta: SignedDelta) throws(DeltaRejection) -> Delta { try store.envelopes.decode(delta) }
}
