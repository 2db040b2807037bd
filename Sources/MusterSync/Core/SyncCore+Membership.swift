import MusterCore

extension SyncCore {
    /// A kiosk exists: it joins the passive view (bounded; a random one makes room).
    mutating func discovered(_ peer: AuthorID) { addPassive(peer) }

    mutating func addPassive(_ peer: AuthorID) {
        guard peer != me else { return }
        if known.count < Self.maxKnown { known.insert(peer) }
        guard sessions[peer] == nil, !passive.contains(peer) else { return }
        let capacity = max(configuration.passiveView, configuration.fullMeshThreshold)
        if passive.count >= capacity {
            // Reservoir sampling: the view stays a uniform sample of every kiosk known. Always
            // taking the newcomer kept the last ones discovered in every view, and at 1,000 kiosks
            // everyone dialed the same few dozen, found them full and stayed alone.
            guard rng.next() % UInt64(max(known.count, capacity)) < UInt64(capacity) else { return }
            passive.remove(at: Int(rng.next() % UInt64(passive.count)))
        }
        passive.append(peer)
    }

    /// Keeps the sessions we should have: on a full mesh every known kiosk (opened by the lower key
    /// of each pair), beyond it the active view filled from the passive view at random.
    mutating func maintainMembership(now: Duration, into out: inout [SyncOutput]) {
        opening = opening.filter { $0.value > now && sessions[$0.key] == nil }
        let live = livePeers.count + opening.count
        if isFullMesh {
            for peer in passive where me < peer && opening[peer] == nil {
                opening[peer] = now + configuration.openTimeout
                out.append(.openSession(peer))
            }
        } else if live < configuration.activeView {
            refusedUntil = refusedUntil.filter { $0.value > now }
            // Kiosks that just refused us are skipped, unless we are alone (then anyone will do).
            var candidates = passive.filter { opening[$0] == nil && (live == 0 || refusedUntil[$0] == nil) }
            for _ in live..<configuration.activeView where !candidates.isEmpty {
                let peer = candidates.remove(at: Int(rng.next() % UInt64(candidates.count)))
                opening[peer] = now + configuration.openTimeout
                out.append(.openSession(peer))
            }
        }
        if !sessions.isEmpty || !passive.isEmpty {
            arm(.membership, at: now + configuration.membershipInterval, into: &out)
        }
    }
}
