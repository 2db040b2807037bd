import MusterCore
import MusterRules

extension SyncCore {
    /// Deltas written here: the store has them; push them on.
    mutating func committedLocally(_ deltas: [SignedDelta], now: Duration, into out: inout [SyncOutput]) {
        guard !deltas.isEmpty else { return }
        advanceHeads(deltas)
        // This kiosk signed its own deltas; what the organizer submitted through the control socket
        // was verified by the store as any peer's (only some signatures checked), so it counts as unchecked.
        let me = configuration.me
        recent.insert(deltas, signatureChecked: Set(deltas.lazy.filter { $0.author == me }.map(\.ref)))
        stateVersion &+= 1
        relay(deltas, from: nil, now: now, into: &out)
    }

    /// A peer sent deltas. Exact copies of what was committed lately are dropped (an eager copy
    /// prunes the link it came on); the rest, in order after what we hold, goes to the store, and so
    /// does a delta at a seq we hold that is not a known copy (it may be a fork). A delta after
    /// a gap is not stored: the gap is asked for from this peer, which evidently holds it.
    mutating func receivedDeltas(
        _ deltas: [SignedDelta],
        from peer: AuthorID,
        now: Duration,
        into out: inout [SyncOutput]
    ) {
        let inSession: Void? = inSession(peer) { session in
            for delta in deltas { session.holds(delta.author, through: delta.seq) }
        }
        guard inSession != nil else { return }
        tallies[peer, default: PeerTally()].deltasReceived += deltas.count
        var fresh: [SignedDelta] = []
        var copies = 0
        var known = 0
        var next: [AuthorID: UInt64] = [:]
        var gaps: [AuthorID: UInt64] = [:]
        for delta in deltas {
            let author = delta.author
            let expected = next[author] ?? effective(author) + 1
            if recent.contains(delta) {
                copies += 1
            } else if delta.seq < expected {
                // A seq we hold or are storing, but not recently seen byte for byte: the store
                // decides (a duplicate is counted there; a different delta is a fork, kept as evidence).
                known += 1
                fresh.append(delta)
            } else if delta.seq == expected {
                fresh.append(delta)
                next[author] = delta.seq + 1
            } else {
                gaps[author] = max(gaps[author] ?? 0, delta.seq)
            }
        }
        tallies[peer, default: PeerTally()].copiesReceived += copies
        // A copy that was not asked for came by eager push on a link that is not the tree's.
        let repairing = repairs.values.contains { $0.peer == peer }
        if copies + known > 0 && fresh.count == known && !repairing && !isFullMesh && sessions[peer]?.eager == true {
            sessions[peer]?.eager = false
            out.append(.send(to: peer, .prune))
        }
        if !fresh.isEmpty { queueStore(fresh, from: peer, into: &out) }
        if !gaps.isEmpty { scheduleRepairs(now: now, preferring: peer, into: &out) }
    }

    /// Pushes new deltas, written here (`sender` nil) or stored from `sender`, on to the other peers:
    /// eagerly to the peers on the tree (all of them on a full mesh), as announcements to the rest.
    /// Not to a peer in session with `sender`: `sender` pushes to it itself, by this same rule.
    mutating func relay(_ deltas: [SignedDelta], from sender: AuthorID?, now: Duration, into out: inout [SyncOutput]) {
        let fullMesh = isFullMesh
        let linger = configuration.eagerLinger
        // Each session changed in place (``inSession(_:_:)``): a session copied out and written back
        // copied its tables on every delta, for every peer.
        for peer in livePeers where peer != sender {
            let step: RelayStep? = inSession(peer) { session in
                if let sender, session.peerSessions.contains(sender) {
                    for delta in deltas { session.holds(delta.author, through: delta.seq) }
                    return .nothing
                }
                let lacking = deltas.filter { $0.seq > session.peerHas[$0.author] ?? 0 }
                guard !lacking.isEmpty else { return .nothing }
                let eager = fullMesh || session.eager
                if eager && (fullMesh || linger == .zero) {
                    for delta in lacking { session.holds(delta.author, through: delta.seq) }
                    return .send(lacking)
                } else if eager {
                    // Not marked as held yet: what the peer sends us meanwhile (it got them elsewhere)
                    // is not sent back at the flush.
                    session.pending.append(contentsOf: lacking)
                    return .linger
                }
                return .announce(lacking)
            }
            switch step {
            case nil, .nothing: continue
            case .send(let lacking): out.append(.send(to: peer, .deltas(lacking)))
            case .linger: arm(.eagerPush, at: now + linger, into: &out)
            case .announce(let lacking): announce(lacking, to: peer, now: now, into: &out)
            }
        }
    }

    /// What ``relay(_:from:now:into:)`` does for one peer.
    private enum RelayStep {
        /// It holds them all, or its peer in session with the sender pushes them.
        case nothing
        /// Pushed now.
        case send([SignedDelta])
        /// Held back for the eager linger.
        case linger
        /// Announced at the next lazy push.
        case announce([SignedDelta])
    }

    /// Queues announcements of `deltas` for a lazy peer, sent at the next lazy push.
    private mutating func announce(
        _ deltas: [SignedDelta],
        to peer: AuthorID,
        now: Duration,
        into out: inout [SyncOutput]
    ) {
        inSession(peer) { session in
            for delta in deltas {
                session.announce(SeqRange(author: delta.author, after: delta.seq - 1, through: delta.seq))
            }
        }
        arm(.lazyPush, at: now + configuration.lazyInterval, into: &out)
    }

    /// Sends the deltas held back for eager peers (``Configuration/eagerLinger``), one message each.
    mutating func flushEager(now: Duration, into out: inout [SyncOutput]) {
        for peer in livePeers {
            // Each session changed in place, as in ``relay(_:from:now:into:)``: reading
            // `sessions[peer]?.…` copied the session, and each delta marked held looked it up again.
            let step: RelayStep? = inSession(peer) { session in
                guard !session.pending.isEmpty else { return .nothing }
                let pending = session.pending
                session.pending = []
                guard session.eager else {
                    // Pruned while they waited: announced instead, like anything else for a lazy peer.
                    return .announce(pending.filter { $0.seq > session.peerHas[$0.author] ?? 0 })
                }
                var lacking: [SignedDelta] = []
                for delta in pending where session.holds(delta.author, through: delta.seq) { lacking.append(delta) }
                return lacking.isEmpty ? .nothing : .send(lacking)
            }
            switch step {
            case nil, .nothing, .linger: continue
            case .send(let lacking): out.append(.send(to: peer, .deltas(lacking)))
            case .announce(let lacking): announce(lacking, to: peer, now: now, into: &out)
            }
        }
    }

    /// Sends the announcements batched for lazy peers.
    mutating func flushLazy(now: Duration, into out: inout [SyncOutput]) {
        for peer in livePeers {
            // Read and changed in place (``inSession(_:_:)``): `sessions[peer]?.…` copied the session.
            let ranges =
                inSession(peer) { session -> [SeqRange]? in
                    guard !session.lazy.isEmpty else { return nil }
                    let lazy = session.lazy
                    session.lazy = [:]
                    return lazy.values.filter { $0.through > session.peerHas[$0.author] ?? 0 }
                        .sorted { $0.author < $1.author }
                } ?? nil
            if let ranges, !ranges.isEmpty { out.append(.send(to: peer, .ihave(ranges))) }
        }
    }

    /// A lazy peer announced deltas: if they do not arrive by eager push within the graft timeout,
    /// the announcer is grafted.
    mutating func heardAnnouncement(
        _ ranges: [SeqRange],
        from peer: AuthorID,
        now: Duration,
        into out: inout [SyncOutput]
    ) {
        for range in ranges {
            sessions[peer]?.holds(range.author, through: range.through)
            guard range.through > effective(range.author), !forked.contains(range.author) else { continue }
            if var entry = announced[range.author] {
                entry.through = max(entry.through, range.through)
                if !entry.announcers.contains(peer) { entry.announcers.append(peer) }
                announced[range.author] = entry
            } else {
                announced[range.author] = (range.through, [peer], now + configuration.graftTimeout)
                arm(.graft, at: now + configuration.graftTimeout, into: &out)
            }
        }
    }

    /// Announced deltas still missing after the graft timeout: graft the first announcer and ask it
    /// for the range (one repair per author, as always).
    mutating func checkAnnouncements(now: Duration, into out: inout [SyncOutput]) {
        var grafts: [AuthorID: [SeqRange]] = [:]
        var next: Duration?
        // In key order: the grafts' ranges (and the repairs they start) must not depend on the
        // dictionary's per-process hash seed, or the simulator could not replay a run.
        for author in announced.keys.sorted(by: { $0 < $1 }) {
            guard let entry = announced[author] else { continue }
            if effective(author) >= entry.through {
                announced[author] = nil
                continue
            }
            guard entry.deadline <= now else {
                next = min(next ?? entry.deadline, entry.deadline)
                continue
            }
            announced[author] = nil
            // The announcer that holds the most of it (the first such): grafting one that announced
            // less asked it for deltas it did not have, and the rest waited for the repair timeout.
            var best: (peer: AuthorID, has: UInt64)?
            for peer in entry.announcers where sessions[peer]?.state == .established {
                let has = sessions[peer]?.peerHas[author] ?? 0
                if has > best?.has ?? 0 { best = (peer, has) }
            }
            guard repairs[author] == nil, let (peer, has) = best, has > effective(author) else { continue }
            let range = SeqRange(
                author: author,
                after: effective(author),
                through: min(entry.through, has, effective(author) + configuration.repairChunk)
            )
            repairs[author] = Repair(
                peer: peer,
                range: range,
                deadline: now + configuration.repairTimeout,
                progress: effective(author)
            )
            grafts[peer, default: []].append(range)
        }
        for (peer, ranges) in grafts.sorted(by: { $0.key < $1.key }) {
            sessions[peer]?.eager = true
            out.append(.send(to: peer, .graft(ranges)))
        }
        if !grafts.isEmpty { arm(.repair, at: now + configuration.repairTimeout, into: &out) }
        if let next { arm(.graft, at: next, into: &out) }
    }

    /// Fork evidence to every session that was not sent it within ``forkResendInterval`` (see
    /// ``SyncInput/forkEvidence(_:)``), also one still waiting for the peer's hello: the driver hands
    /// over what it knows of forks as a session opens. The core keeps each author's lowest pair, to
    /// send again to a peer whose heads show it still holds that chain past the cut.
    mutating func passOn(_ evidence: [SignedDelta], now: Duration, into out: inout [SyncOutput]) {
        for delta in evidence {
            let known = forkEvidence[delta.author] ?? []
            if let seq = known.first?.seq, seq < delta.seq { continue }
            if known.first?.seq != delta.seq {
                forkEvidence[delta.author] = [delta]
            } else if !known.contains(delta) {
                forkEvidence[delta.author]?.append(delta)
            }
        }
        for peer in sessions.keys.sorted(by: { $0 < $1 }) { send(evidence, to: peer, now: now, into: &out) }
    }

    /// The evidence of `peer` not sent to it within ``forkResendInterval``.
    mutating func send(_ evidence: [SignedDelta], to peer: AuthorID, now: Duration, into out: inout [SyncOutput]) {
        guard var session = sessions[peer], session.state != .closing else { return }
        var unsent: [SignedDelta] = []
        for delta in evidence
        where session.evidenceSent[delta.signature].map({ now - $0 >= forkResendInterval }) ?? true {
            session.evidenceSent[delta.signature] = now
            unsent.append(delta)
        }
        sessions[peer] = session
        if !unsent.isEmpty { out.append(.send(to: peer, .deltas(unsent))) }
    }
}
