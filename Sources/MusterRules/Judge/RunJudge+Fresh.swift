import MusterCore
import MusterCrypto

/// The deltas of a run above the author's head: who may write them, whether they chain on, and which
/// of them are stored.
extension RunJudge {
    /// Keeps the contiguous prefix after the head (it ends with a delta whose own signature
    /// authenticates it), cuts it where the author may no longer write, verifies it as a chain and
    /// plans to store it up to the first delta refused.
    func judgeFresh(_ fresh: [SignedDelta], cut: HeldCut, plan: inout RunPlan) throws(Reader.Failure) {
        let (prefix, gap) = record.head.contiguousPrefix(of: fresh)
        if let gap { plan.reject(gap) }
        guard !prefix.isEmpty else { return }
        var admitted = Array(prefix)
        guard let byDevice = try admit(&admitted, cut: cut, plan: &plan) else { return }
        let hashes: [[UInt8]]
        do {
            hashes = try ChainVerifier.verify(run: admitted, after: record.head, signature: reader.signatureVerifies)
        } catch {
            plan.reject(error)
            return
        }
        plan.steps.append(.store(storedRun(admitted, hashes: hashes, byDevice: byDevice)))
    }

    /// Only the organizer, kiosks and organizer devices on the roster may author deltas; a forked
    /// author's chain ends before its cut, and a revoked author's deltas after its watermark are cut
    /// off. Returns nil when nothing of `fresh` remains, else whether the author is an organizer device.
    private func admit(_ fresh: inout [SignedDelta], cut: HeldCut, plan: inout RunPlan) throws(Reader.Failure) -> Bool?
    {
        let author = record.head.author
        if let seq = cut.seq, let index = fresh.firstIndex(where: { $0.seq >= seq }) {
            plan.reject(
                DeltaRejection(
                    .forked,
                    "\(author) forked at seq \(seq); its chain ends before it",
                    ref: fresh[index].ref
                )
            )
            // Whoever offered less than the whole evidence (one version, or a continuation) may not
            // know of the fork: the evidence goes back out with the report. Whoever offered both
            // versions knows, so two replicas that both know never bounce it between them.
            var evidence = cut.evidence ?? []
            if cut.evidence == nil { evidence = try reader.forkEvidence(of: author, seq: seq) }
            if !evidence.allSatisfy({ offered.contains($0) }) { plan.steps.append(.reportForkEvidence(evidence)) }
            fresh.removeSubrange(index...)
            if fresh.isEmpty { return nil }
        }
        switch record.membership {
        case .organizer, .enrolled:
            return false
        case .device:
            return true
        case .unknown:
            plan.reject(DeltaRejection(.notEnrolled, "\(author) is not on the venue roster", ref: fresh.first?.ref))
            return nil
        case .revoked(let watermark, let evidence):
            let mark = admitRevoked(&fresh, watermark: watermark, evidence: evidence, plan: &plan)
            // A revoked device's deltas up to its watermark are still a device's.
            return mark == nil ? nil : record.isDevice
        }
    }

    /// A revoked author's deltas up to its watermark. A delta at the watermark must be the one the
    /// revocation names by hash; another version there lowers the watermark below it, as if the
    /// revocation had found it already stored. Returns nil when nothing remains.
    private func admitRevoked(
        _ fresh: inout [SignedDelta],
        watermark: UInt64,
        evidence: SignedDelta,
        plan: inout RunPlan
    ) -> UInt64? {
        let author = record.head.author
        var watermark = watermark
        if let expected = record.watermarkHash, let atMark = fresh.first(where: { $0.seq == watermark }),
            Blake2b.hash256(atMark.envelope) != expected
        {
            watermark -= 1
            plan.steps.append(.lowerWatermark(author, to: watermark, evidence: evidence))
        }
        if let cut = fresh.firstIndex(where: { $0.seq > watermark }) {
            plan.reject(
                DeltaRejection(.revoked, "kiosk \(author) was revoked after seq \(watermark)", ref: fresh[cut].ref)
            )
            fresh.removeSubrange(cut...)
        }
        return fresh.isEmpty ? nil : watermark
    }

    /// Authorizes, decodes and checks `fresh` (a verified chain after the author's head, with its
    /// `hashes`) in order, up to the first delta refused. Time moves forward along the chain, inside
    /// the window the author's certificate opens.
    private func storedRun(_ fresh: [SignedDelta], hashes: [[UInt8]], byDevice: Bool) -> StoredRun {
        var run = StoredRun(chain: fresh, hashes: hashes)
        var previousHLC = record.headHLC
        for index in fresh.indices {
            let delta = fresh[index]
            let decoded: Delta
            do throws(DeltaRejection) {
                try policy.authorize(delta, byDevice: byDevice)
                decoded = try reader.decode(delta)
                try policy.checkMeaning(decoded, byDevice: byDevice)
                try policy.checkTime(
                    decoded.hlc,
                    after: previousHLC,
                    certificate: record.certificateHLC,
                    ref: delta.ref
                )
            } catch {
                run.refusal = error
                run.checkLastSignature = run.deltas.last.map { reader.signatureVerifies($0) } ?? false
                return run
            }
            // Only the newest delta of the run had its own signature checked; the others are
            // authenticated by the chain. Served pages end on a delta whose signature was checked, so in
            // a long run (an import applied in one transaction) every `verifiedStride`-th signature is
            // checked too: a page then stays within one sync message however long the run.
            let verified =
                index == fresh.count - 1
                || ((index + 1) % Self.verifiedStride == 0 && reader.signatureVerifies(delta))
            previousHLC = decoded.hlc
            run.append(consume decoded, verified: verified, aheadMillis: clock.ahead(delta.hlc))
        }
        return run
    }
}
