import MusterCore
import MusterRules

/// The lying kiosks of a Byzantine run, and how the run knows the honest ones have settled.
extension Simulation {
    /// An attendee comes to a liar: it lies (``Liar/step(item:wallMillis:)``) and its sync core is
    /// told of its first branch's new delta, which it pushes on like any kiosk's own write. Nothing
    /// is acknowledged: a liar's word is not an honest check-in.
    func lie(_ liar: Liar, at kiosk: SimKiosk, item: Int) throws(SimError) {
        try liar.step(item: item, wallMillis: kiosk.wallMillis(at: now))
        if let delta = liar.branches[0].last { try feed(kiosk, .localCommit([delta])) }
        startProbing()
    }

    /// While probing a Byzantine run: the honest kiosks have settled once they are all up, hold
    /// every honest delta written and show one digest, at ``ByzantineRun/settleProbes`` probes in a
    /// row (the liars' deltas have no fixed final set to wait for: the fork cut decides it).
    func settle() throws(SimError) {
        guard let byzantine, convergedAt == nil else { return }
        if try honestAgree() {
            if byzantine.agreeing == 0 { byzantine.agreedSince = now }
            byzantine.agreeing += 1
            if byzantine.agreeing >= ByzantineRun.settleProbes {
                convergedAt = byzantine.agreedSince
                return
            }
        } else {
            byzantine.agreeing = 0
        }
        queue.schedule(.settle, at: now + ByzantineRun.settleInterval)
    }

    private func honestAgree() throws(SimError) -> Bool {
        guard let byzantine else { return false }
        let revoked = byzantine.revocation
        let honest = kiosks.filter { byzantine.liars[$0.index] == nil && $0.index != revoked?.kiosk }
        guard honest.allSatisfy(\.up) else { return false }
        var expected: [AuthorID: UInt64] = [:]
        for ref in written.keys { expected[ref.author] = max(expected[ref.author] ?? 0, ref.seq) }
        // What a revocation set aside is held nowhere: its kiosk's chain ends at the watermark.
        if let revoked { expected[revoked.author] = min(expected[revoked.author] ?? 0, revoked.watermark) }
        var digests = Set<String>()
        do {
            for kiosk in honest {
                let heads = Dictionary(uniqueKeysWithValues: try kiosk.store.heads().map { ($0.author, $0.seq) })
                guard expected.allSatisfy({ (heads[$0.key] ?? 0) == $0.value }) else { return false }
                digests.insert(try kiosk.store.digest())
            }
        } catch {
            throw SimError("cannot read an honest kiosk's store", cause: error)
        }
        return digests.count == 1
    }

    /// What the checker needs of a Byzantine run: every honest kiosk's facts, read from its replica.
    func byzantineHistory() throws(SimError) -> ByzantineHistory? {
        guard let byzantine else { return nil }
        let targets = byzantine.presenceTargets
        let keys = (0..<SimVenue.importedAttendees).map { SimVenue.attendee($0).key }
        var facts: [String: KioskFacts] = [:]
        for kiosk in kiosks where byzantine.liars[kiosk.index] == nil {
            guard let replica = kiosk.store as? ReplicaStore else { continue }
            facts["k\(kiosk.index + 1)"] = try replica.facts(
                attendees: keys,
                presences: targets,
                authors: byzantine.liarAuthors
            )
        }
        // The latest wall clock, its skew, how far ahead a stamp may move a clock, and a second.
        let ceiling =
            SimVenue.startMillis + UInt64(now / VirtualTime.millisecond) + 60_000
            + ReplicaStore.clockBoundMillis + 1_000
        return byzantine.history(facts: facts, ceilingMillis: ceiling)
    }
}
