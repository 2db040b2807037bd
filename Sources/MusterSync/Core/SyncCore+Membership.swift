import MusterCore

extension SyncCore {
    /// A kiosk exists: it joins the passive view (bounded; a random one makes room).
    mutating func discovered(_ peer: AuthorID) { addPassive(peer) }

    mutating func addPassive(_ peer: AuthorID) {
        guard peer != me, sessions[peer] == nil, !passive.contains(peer) else { return }
        if passive.count >= max(configuration.passiveView, configuration.fullMeshThreshold) {
            passive.remove(at: Int(rng.next() % UInt64(passive.count)))
        }
        passive.append(peer)
    }

    /// Keeps the sessions we should have: on a full mesh every known kiosk (opened by the lower key
    /// of each pair), beyond it the active view filled from the passive view at random.
    mutating func maintainMembership(now: Duration, into out: inout [SyncOutput]) {
        let live = livePeers.count + opening.count
        if isFullMesh {
            for peer in passive where me < peer && !opening.contains(peer) {
                opening.insert(peer)
                out.append(.openSession(peer))
            }
        } else if live < configuration.activeView {
            var candidates = passive.filter { !opening.contains($0) }
            for _ in live..<configuration.activeView where !candidates.isEmpty {
                let peer = candidates.remove(at: Int(rng.next() % UInt64(candidates.count)))
                opening.insert(peer)
                out.append(.openSession(peer))
            }
        }
        if !sessions.isEmpty || !passive.isEmpty {
            arm(.membership, at: now + configuration.membershipInterval, into: &out)
        }
    }
}
