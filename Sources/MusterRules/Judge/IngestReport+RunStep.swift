import MusterCore

/// What a report says of each step of a ``RunPlan``: one function for both stores, so their reports
/// agree delta for delta whenever their plans do.
extension IngestReport {
    /// Notes `step`, which the store carries out. The replica notes it just before (its store step
    /// gives the decoded deltas away), in the transaction whose failure discards the report.
    public mutating func note(_ step: RunStep) {
        switch step {
        case .duplicate:
            duplicates += 1
        case .reject(let rejection):
            rejected.append(rejection)
        case .keepForkEvidence, .lowerWatermark:
            break
        case .cutChain(let ref, let evidence):
            newForks.append(ref)
            forkEvidence += evidence
            forgetChain(from: ref)
        case .replaceOrganizerEvidence(let ref, _, let firstSeen):
            if firstSeen { organizerForks.append(ref) }
        case .reportForkEvidence(let evidence):
            forkEvidence += evidence
        case .dropOrganizerBranch(let ref):
            forgetChain(from: ref)
        case .store(let run):
            for index in 0..<run.count { noteStored(index, of: run) }
            if let refusal = run.refusal { rejected.append(refusal) }
        }
    }

    /// What this batch stored of a chain from a fork's cut, or of the organizer's losing branch, is gone
    /// again: not to be relayed, and its revocations not acted on (a kiosk named in one would stop, or
    /// wipe itself).
    private mutating func forgetChain(from ref: DeltaRef) {
        for gone in applied where gone.author == ref.author && gone.seq >= ref.seq && gone.kind == .revoke {
            if case .revoke(let payload)? = try? gone.decode().body, let index = revocations.firstIndex(of: payload) {
                revocations.remove(at: index)
            }
        }
        applied.removeAll { $0.author == ref.author && $0.seq >= ref.seq }
    }

    /// The `index`-th delta of `run`, just stored; a stamp too far ahead of the store's clock is a clock
    /// warning and does not move `newestAcceptedHLC`.
    private mutating func noteStored(_ index: Int, of run: StoredRun) {
        let delta = run.deltas[index]
        applied.append(delta)
        if run.verified[index] { signatureChecked.insert(delta.ref) }
        if let payload = run.revocation(at: index) { revocations.append(payload) }
        if run.aheadMillis[index] != nil {
            clockWarnings.append(delta.ref)
        } else {
            newestAcceptedHLC = max(newestAcceptedHLC ?? .zero, delta.hlc)
        }
    }
}
