import MusterCore
import MusterCrypto
import MusterRules
import MusterSync

/// A kiosk revoked across the partition (``SimOptions/revoke``): the organizer's revocation, what
/// stores and sessions do with it (``RevocationAction``, ``Admission``), and the revoked kiosk's stop.
extension Simulation {
    /// The partition has just cut `side` from the rest: an honest kiosk inside takes the
    /// organizer's revocation of the first honest kiosk outside, with the watermark it holds of that
    /// kiosk's chain and the next network key sealed to every other kiosk (as `muster revoke` would
    /// submit it through its control socket), and pushes it on like its own write.
    func revoke(across side: [Int]) throws(SimError) {
        guard let byzantine, byzantine.revocation == nil else { return }
        let cut = Set(side)
        guard let signer = kiosks.first(where: { $0.up && cut.contains($0.index) && byzantine.liars[$0.index] == nil }),
            let victim = kiosks.first(where: { !cut.contains($0.index) && byzantine.liars[$0.index] == nil })
        else { return }
        let wall = signer.wallMillis(at: now)
        do {
            let heads = try signer.store.heads()
            let held = heads.first { $0.author == victim.id }
            let payload = RevokePayload(
                kiosk: victim.id,
                watermark: held?.seq ?? 0,
                keyGeneration: 1,
                sealedKeys: try sealedNetworkKey(except: victim.index),
                watermarkHash: held?.hash
            )
            var organizer = DeltaSigner(
                venue: venue.policy.venue,
                keyPair: venue.organizerKey,
                head: heads.first { $0.author == venue.policy.organizer } ?? .empty(venue.policy.organizer)
            )
            let delta = try organizer.sign(.revoke(payload), hlc: HLC(physicalMillis: wall, logical: 0))
            let report = try signer.store.ingest([delta], nowMillis: wall)
            guard report.applied == [delta] else {
                throw SimError("k\(signer.index + 1) refused the organizer's revocation: \(report.rejected)")
            }
            byzantine.revocation = ByzantineRun.Revoked(
                kiosk: victim.index,
                author: victim.id,
                watermark: payload.watermark
            )
            written[delta.ref] = delta
            try feed(signer, .localCommit([delta]))
            try revocationsStored(at: signer, report)
        } catch let error as SimError {
            throw error
        } catch {
            throw SimError("k\(signer.index + 1) cannot take the organizer's revocation", cause: error)
        }
    }

    /// The venue's next network key, sealed to every kiosk but the revoked one (real sealed boxes).
    private func sealedNetworkKey(except revoked: Int) throws -> [RevokePayload.SealedKey] {
        var random = replicationRandom.fork(0x5245_564B)
        let key = try SecureBytes(copying: random.bytes(32))
        return try venue.kioskKeys.indices.filter { $0 != revoked }.prefix(RevokePayload.maxSealedKeys).map { index in
            RevokePayload.SealedKey(
                kiosk: venue.kioskIDs[index],
                sealed: try SealedBox.seal(key, to: venue.kioskKeys[index].publicKey)
            )
        }
    }

    /// The kiosk's store took revocations in: what they mean for its sessions and itself.
    func revocationsStored(at kiosk: SimKiosk, _ report: IngestReport) throws(SimError) {
        recordKeys(of: report, at: kiosk)
        let actions = RevocationAction.actions(
            for: report.revocations,
            me: kiosk.id,
            inSession: { indexOf[$0].map { kiosk.sessions[$0] != nil } ?? false },
            membership: { try? kiosk.store.membership(of: $0) }
        )
        for action in actions {
            switch action {
            case .stop:
                stopRevoked(kiosk)
                return
            case .close(let peer, let show):
                guard let to = indexOf[peer] else { continue }
                if let show { send(.revoked(show), from: kiosk.index, to: to, at: now) }
                close(kiosk, peer: to, at: now)
            }
        }
    }

    /// A peer showed the kiosk a revocation of itself: its own store judges it, as any delta, and
    /// ``RevocationOfUs`` says what follows; `reply` writes to that peer.
    func heardRevocation(
        _ evidence: SignedDelta,
        at kiosk: SimKiosk,
        reply: (SyncMessage) -> Void
    ) throws(SimError) {
        guard kiosk.up, organizersRevocation(evidence)?.kiosk == kiosk.id else { return }
        let report: IngestReport
        do {
            report = try kiosk.store.ingest([evidence], nowMillis: kiosk.wallMillis(at: now))
        } catch {
            throw SimError("k\(kiosk.index + 1) cannot store a revocation it was shown", cause: error)
        }
        recordKeys(of: report, at: kiosk)
        for delta in report.applied { kiosk.noteStored(delta) }
        let store = kiosk.store
        let verdict = RevocationOfUs.judge(
            evidence,
            ours: try? store.membership(of: kiosk.id),
            organizer: venue.policy.organizer,
            delta: { author, seq in try? store.deltas(of: author, after: seq - 1, limit: 1).first { $0.seq == seq } },
            membership: { try? store.membership(of: $0) }
        )
        switch verdict {
        case .stop, .stopKeepingFiles:
            stopRevoked(kiosk)
        case .answer(let answer):
            reply(.deltas([answer]))
            if !report.applied.isEmpty { try feed(kiosk, .storeHeads((try? store.heads()) ?? [])) }
        }
    }

    /// What `evidence` says if it is a revocation the organizer signed (the simulator's venue has no
    /// organizer devices; the daemon's `Replica.verifiedRevocation` accepts theirs too).
    func organizersRevocation(_ evidence: SignedDelta) -> RevokePayload? {
        guard evidence.author == venue.policy.organizer else { return nil }
        return RevocationEvidence.signed(evidence, venue: venue.policy.venue)
    }

    /// A revoked peer's appeal: the organizer's deltas it carried (``ConnectionLife`` took nothing
    /// else), stored like any others, as the daemon's `appeal` does.
    func storeAppeal(_ deltas: [SignedDelta], at kiosk: SimKiosk) throws(SimError) {
        let report: IngestReport
        do {
            report = try kiosk.store.ingest(deltas, nowMillis: kiosk.wallMillis(at: now))
        } catch {
            throw SimError("k\(kiosk.index + 1) cannot store an appeal", cause: error)
        }
        guard !report.applied.isEmpty else { return }
        for delta in report.applied { kiosk.noteStored(delta) }
        probe(kiosk)
        try feed(kiosk, .storeHeads((try? kiosk.store.heads()) ?? []))
        if !report.forkEvidence.isEmpty { try feed(kiosk, .forkEvidence(report.forkEvidence)) }
        if report.mayChangeRevocations { try revocationsStored(at: kiosk, report) }
    }

    /// The daemon of a revoked kiosk stops for good: down, as after a crash, and never restarted.
    func stopRevoked(_ kiosk: SimKiosk) {
        guard kiosk.up else { return }
        crash(kiosk)
        // Not a fault that ends: the run does not wait for it.
        faultsOpen -= 1
        kiosk.revoked = true
        startProbing()
    }
}
