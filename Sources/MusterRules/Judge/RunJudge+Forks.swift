import MusterCore
import MusterCrypto

/// Second versions of a held seq. A kiosk's chain is cut at the fork on every replica; the
/// organizer's is resolved, one version kept by one rule (``OrganizerVersion``).
extension RunJudge {
    /// A second, different delta at a seq the store holds. Evidence is kept only when its signature
    /// verifies, so nobody but the author can fill the table, and at most two envelopes per (author,
    /// seq): the first two seen, which are all any replica needs to prove the fork.
    ///
    /// A kiosk that forks is cut on every replica by the same rule: its chain ends before the lowest
    /// seq at which it forked (``DeltaRejection/Code/forked``), as if revoked there. The evidence is
    /// reported (``IngestReport/forkEvidence``) so the sync layer passes it on: a replica that holds
    /// one version and receives the other finds the same fork and makes the same cut.
    func judgeKioskFork(_ delta: SignedDelta, cut: inout HeldCut, plan: inout RunPlan) throws(Reader.Failure) {
        guard admitsSecondVersion(delta, byDevice: record.isDevice, plan: &plan) else { return }
        var evidence = try reader.forkEvidence(of: delta.author, seq: delta.seq)
        if evidence.isEmpty, let held = try reader.held(delta.author, seq: delta.seq) {
            evidence.append(held.delta)
        }
        if evidence.count < 2, !evidence.contains(delta) { evidence.append(delta) }
        plan.steps.append(.keepForkEvidence(at: delta.ref, evidence: evidence))
        plan.reject(
            DeltaRejection(
                .fork,
                "author \(delta.author) signed two different deltas with seq \(delta.seq)",
                ref: delta.ref
            )
        )
        guard evidence.count == 2, cut.seq.map({ delta.seq < $0 }) ?? true else { return }
        plan.steps.append(.cutChain(at: delta.ref, evidence: evidence))
        cut = HeldCut(seq: delta.seq, evidence: evidence)
    }

    /// Another version of a seq of the organizer's chain, which the store already holds: the
    /// organizer key signed on two machines during a partition (organizer devices exist so that
    /// it need not). Its chain is never cut, which would end the venue, and it must not stay split
    /// either: each side would refuse the other's locks and undos for good. So every replica keeps
    /// one version by one rule (``OrganizerVersion/beats(_:_:)``) with the chain that follows it, and
    /// drops the other branch, whichever it met first.
    ///
    /// A version that follows another delta at `seq - 1` than the one held is no contender here:
    /// it is refused as a broken chain, and the sync layer sends the peer our version of `seq - 1`,
    /// down to the seq where the two chains part (`StoreResult.brokenChains`).
    ///
    /// - Returns: true when `delta` won: the plan drops the organizer's chain from its seq on.
    func judgeOrganizerVersion(_ delta: SignedDelta, plan: inout RunPlan) throws(Reader.Failure) -> Bool {
        guard admitsSecondVersion(delta, byDevice: false, plan: &plan), try contends(delta, plan: &plan),
            let held = try reader.held(delta.author, seq: delta.seq)?.delta
        else { return false }
        let (winner, loser) = OrganizerVersion.beats(delta, held) ? (delta, held) : (held, delta)
        // The evidence: the version kept and one it beat, for `muster status` and for peers.
        let evidence = [winner, loser]
        let known = try reader.forkEvidence(of: delta.author, seq: delta.seq)
        if Set(known.map(\.signature)) != Set(evidence.map(\.signature)) {
            plan.steps.append(.replaceOrganizerEvidence(at: delta.ref, evidence: evidence, firstSeen: known.isEmpty))
        }
        // Peers hear of it unless the sender already showed both versions and nothing moved here.
        if winner == delta || !evidence.allSatisfy({ offered.contains($0) }) {
            plan.steps.append(.reportForkEvidence(evidence))
        }
        guard winner == delta else {
            plan.reject(
                DeltaRejection(
                    .superseded,
                    "the organizer signed two versions of seq \(delta.seq); every replica keeps the other one",
                    ref: delta.ref
                )
            )
            return false
        }
        plan.steps.append(.dropOrganizerBranch(from: delta.ref))
        return true
    }

    /// Whether another version of a held organizer seq contends at all: it follows the version of `seq - 1`
    /// the store holds (else it is refused as a broken chain), and it could be stored in place of the one
    /// held. One that could not would drop the branch and then be refused itself (a stamp before its
    /// parent's could beat every honest version, leaving no version of the seq anywhere).
    private func contends(_ delta: SignedDelta, plan: inout RunPlan) throws(Reader.Failure) -> Bool {
        var parent = Delta.genesisPrev
        var parentHLC: HLC?
        if delta.seq > 1 {
            let held = try reader.held(delta.author, seq: delta.seq - 1)
            parent = held?.hash ?? []
            parentHLC = held?.delta.hlc
        }
        guard delta.prev == parent else {
            plan.reject(
                DeltaRejection(
                    .brokenChain,
                    "the organizer's seq \(delta.seq) follows another version of seq \(delta.seq - 1) than this replica holds",
                    ref: delta.ref
                )
            )
            return false
        }
        do throws(DeltaRejection) {
            let decoded = try reader.decode(delta)
            try policy.checkMeaning(decoded)
            try policy.checkTime(decoded.hlc, after: parentHLC, certificate: nil, ref: delta.ref)
        } catch {
            plan.reject(error)
            return false
        }
        return true
    }

    /// Whether a second version of a held seq may count at all: its author may write its kind, and
    /// its own signature verifies (so nobody but the author can make evidence). Refused otherwise.
    private func admitsSecondVersion(_ delta: SignedDelta, byDevice: Bool, plan: inout RunPlan) -> Bool {
        do throws(DeltaRejection) {
            try policy.authorize(delta, byDevice: byDevice)
        } catch {
            plan.reject(error)
            return false
        }
        guard reader.signatureVerifies(delta) else {
            plan.reject(DeltaRejection(.badSignature, "signature does not verify", ref: delta.ref))
            return false
        }
        return true
    }
}
