import MusterCore
import MusterRules

extension SyncCore {
    /// A session is up: say hello (our heads and digest), or close it when the active view is full.
    /// A second session with the same kiosk (the driver keeps one) starts its state afresh, but for
    /// what the peer said of its sessions and holds.
    mutating func sessionOpened(_ peer: AuthorID, initiator: AuthorID, now: Duration, into out: inout [SyncOutput]) {
        opening[peer] = nil
        passive.removeAll { $0 == peer }
        if known.count < Self.maxKnown { known.insert(peer) }
        let replacing = sessions[peer]
        if replacing == nil, !isFullMesh, livePeers.count >= configuration.maxSessions {
            // HyParView makes room for a kiosk that asks: refused by every full view, kiosks that came
            // up late built an overlay of their own and never heard from the first ones (a 50-kiosk
            // lab split 21/29). The peer dropped is the one in session with the most others, so it
            // stays connected; with none in session elsewhere the newcomer is refused instead.
            guard let dropped = evictionCandidate(for: peer) else {
                addPassive(peer)
                out.append(.closeSession(peer, .viewFull))
                return
            }
            sessions[dropped]?.state = .closing
            out.append(.closeSession(dropped, .viewFull))
        }
        var session = SessionMachine(peer: peer, initiator: initiator, now: now)
        if let replacing {
            // The pair was never apart: what the peer said of its other sessions, and what it holds,
            // still stand until its hello and next announcement say otherwise. A fresh session
            // forgot both, and relayed to the peer what it hears from their authors itself (a full
            // mesh saw 41 copies each way when the import crossed a replacement; issue 32).
            session.peerSessions = replacing.peerSessions
            session.replaceHas(replacing.peerHas)
            // The old connection's frames are dropped from now on (a driver reads only the session it
            // holds), so what was asked on it will not come. Asked again once this session's hello
            // says what the peer holds: kept, a repair waited one or two repair timeouts for pages
            // that were never read (a fresh kiosk stalled 5.8 s at 26,000 of 50,000 deltas when its
            // two dials crossed its peers' and one session was replaced; RELIABILITY.md, finding 20).
            for (author, repair) in repairs where repair.peer == peer { repairs[author] = nil }
            if !forkProbes.isEmpty { forkProbes = forkProbes.filter { $0.key.peer != peer } }
        }
        sessions[peer] = session
        out.append(.send(to: peer, .hello(epoch: configuration.epoch, heads: orderedHeads)))
        if let digest {
            out.append(.send(to: peer, .digest(digest)))
            sessions[peer]?.announcedDigest = digest
        }
        sessions[peer]?.announcedVersion = stateVersion
        arm(.announceSessions, at: now + configuration.sessionsAnnouncementDelay, into: &out)
        arm(.liveness, at: now + configuration.livenessTick, into: &out)
        arm(.antiEntropy, at: now + configuration.antiEntropyInterval, into: &out)
        arm(.membership, at: now + configuration.membershipInterval, into: &out)
        // What the store knows of forks goes to every new session: a peer that was cut off or down
        // when the evidence went round would otherwise keep the forked chain for good.
        out.append(.readForkEvidence)
    }

    /// The live peer to drop for `newcomer` when the view is full: the one in session with the most
    /// other kiosks (by its last ``SyncMessage/sessions(_:)``), at least one besides us; nil if none is.
    func evictionCandidate(for newcomer: AuthorID) -> AuthorID? {
        var best: (peer: AuthorID, others: Int)?
        for peer in livePeers where peer != newcomer {
            let others = sessions[peer]?.peerSessions.subtracting([me]).count ?? 0
            guard others >= 1, others > best?.others ?? 0 else { continue }
            best = (peer, others)
        }
        return best?.peer
    }

    /// A session ended: what it was repairing goes to another peer; the kiosk stays known.
    mutating func sessionClosed(_ peer: AuthorID, now: Duration, into out: inout [SyncOutput]) {
        guard let session = sessions.removeValue(forKey: peer) else { return }
        if !forkProbes.isEmpty { forkProbes = forkProbes.filter { $0.key.peer != peer } }
        if !isFullMesh, session.initiator == me, session.state == .awaitingHello {
            refusedUntil[peer] = now + configuration.refusedBackoff
        }
        addPassive(peer)
        sessionLostSinceAnnouncement = true
        for (author, repair) in repairs where repair.peer == peer { repairs[author] = nil }
        for (author, entry) in announced {
            let rest = entry.announcers.filter { $0 != peer }
            if rest.isEmpty { announced[author] = nil } else { announced[author]?.announcers = rest }
        }
        scheduleRepairs(now: now, into: &out)
        arm(.announceSessions, at: now + configuration.sessionsAnnouncementDelay, into: &out)
        arm(.membership, at: now + configuration.membershipInterval, into: &out)
    }

    /// One message from a peer in session.
    mutating func received(_ message: SyncMessage, from peer: AuthorID, now: Duration, into out: inout [SyncOutput]) {
        let lastSent =
            inSession(peer) { session -> Duration? in
                guard session.state != .closing else { return nil }
                session.lastHeard = now
                return session.lastSent
            } ?? nil
        guard let lastSent else { return }
        switch message {
        case .hello(let epoch, let heads):
            if let known = sessions[peer]?.peerEpoch, known != epoch { sessions[peer]?.served = [:] }
            sessions[peer]?.peerEpoch = epoch
            sessions[peer]?.state = .established
            peerHeads(heads, from: peer, now: now, into: &out)
            // What we hold of the peer's chain, as an acknowledgement: a peer of 0.6.5 or later learns
            // at once that this kiosk reads what 0.6.5 added (``FleetStatuses``); an older one reads
            // heads, and its next anti-entropy round puts the rest back.
            out.append(.send(to: peer, .heads([self.heads[peer] ?? .empty(peer)])))
        case .heads(let heads):
            peerHeads(heads, from: peer, now: now, into: &out)
        case .deltas(let deltas):
            receivedDeltas(deltas, from: peer, now: now, into: &out)
        case .ping:
            if now - lastSent >= configuration.heartbeatInterval / 2 { out.append(.send(to: peer, .pong)) }
        case .pong, .credentials, .roster, .revoked, .rekey, .networkKey, .status, .printRequest, .printReply, .unknown:
            break
        case .digest(let digest):
            sessions[peer]?.peerDigest = digest
        case .sessions(let peers):
            sessions[peer]?.peerSessions = Set(peers)
            for other in peers where other != me { addPassive(other) }
        case .want(let ranges):
            serve(ranges, to: peer, now: now, into: &out)
        case .graft(let ranges):
            sessions[peer]?.eager = true
            serve(ranges, to: peer, now: now, into: &out)
        case .prune:
            if !isFullMesh { sessions[peer]?.eager = false }
        case .ihave(let ranges):
            heardAnnouncement(ranges, from: peer, now: now, into: &out)
        }
    }

    /// The peer says what it holds: what it has that we lack is asked for (from one peer per range).
    /// Nothing is pushed on a peer's heads: the peer asks for what it lacks itself, so a peer that
    /// claims seq 0 again does not get the whole log sent again.
    mutating func peerHeads(_ heads: [AuthorHead], from peer: AuthorID, now: Duration, into out: inout [SyncOutput]) {
        if Self.isAcknowledgement(heads, to: me) {
            // The peer committed our deltas through this seq: what it holds of others is unchanged.
            let ours = heads[0]
            sessions[peer]?.holds(ours.author, through: ours.seq)
            return
        }
        _ = inSession(peer) { $0.replaceHas(with: heads) }
        probeForks(heads, from: peer, now: now, into: &out)
        scheduleRepairs(now: now, into: &out)
    }

    /// Heads naming only the receiver's own chain: a peer's acknowledgement that it committed the
    /// receiver's deltas through that seq (``SyncMessage/heads(_:)``), not its whole state.
    public static func isAcknowledgement(_ heads: [AuthorHead], to me: AuthorID) -> Bool {
        heads.count == 1 && heads[0].author == me
    }

    /// A peer's head at the same seq as ours but with another hash: its author signed two versions
    /// of that seq (a fork shown to different kiosks), and neither replica would ever ask the other
    /// for a seq it holds. Our version goes to the peer, whose store then holds both, proves the
    /// fork and cuts the chain, and passes the evidence on to every kiosk (`Replica.ingest`). Heads
    /// of different lengths meet the same way through a broken chain (``stored(_:now:into:)``).
    mutating func probeForks(_ theirs: [AuthorHead], from peer: AuthorID, now: Duration, into out: inout [SyncOutput]) {
        // Most venues never see a fork: no lookup of every author in an empty table (heads name every
        // author, and arrive from every peer at every anti-entropy round).
        let anyEvidence = !forkEvidence.isEmpty
        for head in theirs where head.seq > 0 {
            // The peer holds a forked chain at or past its cut: it missed the evidence. (The
            // organizer's chain goes on past its forks: a peer whose head is ours holds what we do.)
            if anyEvidence, let evidence = forkEvidence[head.author], let cut = evidence.first?.seq, head.seq >= cut,
                heads[head.author] != head
            {
                send(evidence, to: peer, now: now, into: &out)
            }
            guard let ours = heads[head.author], ours.seq == head.seq, ours.hash != head.hash else { continue }
            probeFork(head.author, seq: head.seq, peer: peer, now: now, into: &out)
        }
    }

    /// Sends our version of `author`'s `seq` to `peer`, whose store holds another (at most once per
    /// ``forkResendInterval``).
    mutating func probeFork(
        _ author: AuthorID,
        seq: UInt64,
        peer: AuthorID,
        now: Duration,
        into out: inout [SyncOutput]
    ) {
        let probe = ForkProbe(peer: peer, author: author, seq: seq)
        if let sent = forkProbes[probe], now - sent < forkResendInterval { return }
        forkProbes[probe] = now
        out.append(.sendRange(to: peer, SeqRange(author: author, after: seq - 1, through: seq)))
    }

    /// Heartbeats after our silence; a peer silent past the timeout (and not waiting on our store)
    /// is closed, and so is one whose hello did not come in time: the session is dialed again, and
    /// the new one starts with hellos (until one, nothing is repaired from the peer).
    mutating func checkLiveness(now: Duration, into out: inout [SyncOutput]) {
        for peer in livePeers {
            guard let session = sessions[peer] else { continue }
            if let timeout = configuration.silenceTimeout,
                Silence.isSilent(heardAgo: now - session.lastHeard, storing: session.storing > 0, timeout: timeout)
            {
                sessions[peer]?.state = .closing
                out.append(.closeSession(peer, .silent))
            } else if let timeout = configuration.helloTimeout, session.state == .awaitingHello,
                now - session.opened >= timeout
            {
                sessions[peer]?.state = .closing
                out.append(.closeSession(peer, .noHello))
            } else if now - session.lastSent >= configuration.heartbeatInterval {
                out.append(.send(to: peer, .ping))
            }
        }
        if !sessions.isEmpty { arm(.liveness, at: now + configuration.livenessTick, into: &out) }
    }

    /// Periodic anti-entropy: heads (and the digest when it changed) to every peer, unless the peer
    /// was told this state already and agrees with our digest.
    mutating func antiEntropy(now: Duration, into out: inout [SyncOutput]) {
        // Sorted once for every peer told, not once per peer.
        var ordered: [AuthorHead]?
        for peer in livePeers {
            guard let session = sessions[peer], session.state == .established else { continue }
            if session.announcedVersion == stateVersion, let digest, session.peerDigest == digest,
                session.announcedDigest == digest
            {
                continue
            }
            sessions[peer]?.announcedVersion = stateVersion
            if ordered == nil { ordered = orderedHeads }
            out.append(.send(to: peer, .heads(ordered ?? [])))
            if let digest, digest != session.announcedDigest {
                out.append(.send(to: peer, .digest(digest)))
                sessions[peer]?.announcedDigest = digest
            }
        }
        if !sessions.isEmpty { arm(.antiEntropy, at: now + configuration.antiEntropyInterval, into: &out) }
    }

    /// Tells every peer whom we are in session with (the relay rule depends on it). After a session
    /// was lost, our heads go too: peers skipped us for what the lost kiosk was to deliver, and the
    /// heads let them see what we lack... and let us ask for it.
    mutating func announceSessions(now: Duration, into out: inout [SyncOutput]) {
        let lost = sessionLostSinceAnnouncement
        sessionLostSinceAnnouncement = false
        let peers = livePeers
        let ordered = lost ? orderedHeads : []
        for peer in peers {
            if lost { out.append(.send(to: peer, .heads(ordered))) }
            out.append(.send(to: peer, .sessions(peers.filter { $0 != peer })))
        }
    }

    mutating func fired(_ timer: SyncTimer, now: Duration, into out: inout [SyncOutput]) {
        guard let deadline = timers[timer] else { return }
        guard deadline <= now else {
            out.append(.setTimer(timer, at: deadline))
            return
        }
        timers[timer] = nil
        switch timer {
        case .liveness: checkLiveness(now: now, into: &out)
        case .antiEntropy: antiEntropy(now: now, into: &out)
        case .eagerPush: flushEager(now: now, into: &out)
        case .lazyPush: flushLazy(now: now, into: &out)
        case .graft: checkAnnouncements(now: now, into: &out)
        case .repair: checkRepairs(now: now, into: &out)
        case .announceSessions: announceSessions(now: now, into: &out)
        case .membership: maintainMembership(now: now, into: &out)
        }
    }
}
