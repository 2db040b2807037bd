import MusterCore
import MusterRules
import MusterSync

/// Sessions and frames on the simulated LAN.
extension Simulation {
    /// A dial's handshake takes two round trips; a dial that cannot succeed fails after the
    /// handshake deadline.
    func dial(from kiosk: SimKiosk, to peer: Int, at time: VirtualTime) {
        guard kiosk.sessions[peer] == nil, !kiosk.dialing.contains(peer) else { return }
        kiosk.dialing.insert(peer)
        queue.schedule(
            .connect(from: kiosk.index, to: peer, incarnation: kiosk.incarnation),
            at: time + 4 * network.latency(kiosk.index, peer)
        )
    }

    func connect(from: Int, to: Int, incarnation: UInt64) throws(SimError) {
        let dialer = kiosks[from]
        let acceptor = kiosks[to]
        guard dialer.up, dialer.incarnation == incarnation else { return }
        dialer.dialing.remove(to)
        if let existing = dialer.sessions[to] {
            try crossed(existing, from: dialer, to: acceptor)
            return
        }
        let meeting: Meeting
        var failAt = now + SyncLimits.handshakeTimeout.nanoseconds - 4 * network.latency(from, to)
        if acceptor.up, network.reachable(from, to) {
            if let keys = handshakeKeys(dialer, acceptor) {
                meeting = try meet(dialer, acceptor, retired: keys)
            } else {
                // The acceptor opens no hello under a key it lacks and closes at once.
                meeting = .refused
                failAt = now
            }
        } else {
            meeting = .refused
        }
        dialer.dialAttempts[to] = NetworkKeyRing.nextAttempt(
            after: dialer.dialAttempts[to] ?? 0,
            succeeded: meeting != .refused
        )
        switch meeting {
        case .session:
            break
        case .rekeyed:
            // The connection handed newer keys over and ends; the dial loop dials again with the
            // current key.
            rekeySessions += 1
            queue.schedule(
                .sessionLost(kiosk: from, peer: to, session: 0),
                at: now + SyncLimits.rekeyLinger.nanoseconds
            )
            return
        case .refused:
            // No answer (or a refusal): the dial fails, at the handshake deadline at the latest, and
            // the next tries an older key.
            queue.schedule(.sessionLost(kiosk: from, peer: to, session: 0), at: max(now, failAt))
            return
        }
        if let stale = acceptor.sessions[from] {
            // The acceptor still holds a session the dialer has let go: the new one replaces it.
            drop(stale, at: acceptor, peer: from)
            try feed(acceptor, .sessionClosed(peer: dialer.id))
        }
        let session = network.newSession()
        initiators[session] = from
        dialer.sessions[to] = session
        acceptor.sessions[from] = session
        dialer.peakSessions = max(dialer.peakSessions, dialer.sessions.count)
        acceptor.peakSessions = max(acceptor.peakSessions, acceptor.sessions.count)
        try feed(dialer, .sessionOpened(peer: acceptor.id, initiator: dialer.id))
        try feed(acceptor, .sessionOpened(peer: dialer.id, initiator: dialer.id))
    }

    /// The venue handshake's key: the dialer's choice of its ring (``NetworkKeyRing/dialKey(attempt:nowMillis:)``)
    /// and where the acceptor's ring holds it among the keys it accepts. Returns whether each end
    /// used a retired key, or nil when the acceptor holds no such usable key (the hello fails).
    func handshakeKeys(_ dialer: SimKiosk, _ acceptor: SimKiosk) -> (dialer: Bool, acceptor: Bool)? {
        let attempt = dialer.dialAttempts[acceptor.index] ?? 0
        let (index, key) = dialer.keyRing.dialKey(attempt: attempt, nowMillis: dialer.wallMillis(at: now))
        guard
            let accepted = acceptor.keyRing.accepted(nowMillis: acceptor.wallMillis(at: now))
                .first(where: { $0.key.constantTimeEquals(key) })
        else { return nil }
        return (index != 0, accepted.index != 0)
    }

    /// Crossed dials: both kiosks dialed, and `dialer`'s connection completes while the pair already
    /// holds `existing`, the other one. Both ends keep one by ``SessionPair``: if that is this
    /// newcomer, it replaces the live session in place at both ends (the core sees `sessionOpened`
    /// for a peer it has a session with, and the old session's frames in flight are never read);
    /// otherwise the newcomer is closed unseen.
    func crossed(_ existing: UInt64, from dialer: SimKiosk, to acceptor: SimKiosk) throws(SimError) {
        // A session whose dialer is forgotten is not one the pair prefers.
        let existingDialer = initiators[existing].map { kiosks[$0].id } ?? acceptor.id
        guard
            SessionPair.keepsNewcomer(dialedBy: dialer.id, over: existingDialer, between: dialer.id, acceptor.id),
            acceptor.sessions[dialer.index] == existing
        else { return }
        let session = network.newSession()
        initiators[existing] = nil
        initiators[session] = dialer.index
        dialer.sessions[acceptor.index] = session
        acceptor.sessions[dialer.index] = session
        dialer.heldFrames[acceptor.index] = nil
        acceptor.heldFrames[dialer.index] = nil
        sessionsReplaced += 1
        try feed(dialer, .sessionOpened(peer: acceptor.id, initiator: dialer.id))
        try feed(acceptor, .sessionOpened(peer: dialer.id, initiator: dialer.id))
    }

    /// The kiosk ends its session with `peer`: it is told at once, the peer one latency later.
    func close(_ kiosk: SimKiosk, peer: Int, at time: VirtualTime) {
        guard let session = kiosk.sessions[peer] else { return }
        queue.schedule(.sessionLost(kiosk: kiosk.index, peer: peer, session: session), at: time)
        queue.schedule(
            .sessionLost(kiosk: peer, peer: kiosk.index, session: session),
            at: time + network.latency(kiosk.index, peer)
        )
    }

    /// The transport ends a session (FIN, silence) or a dial fails (`session` 0).
    func sessionLost(_ kiosk: SimKiosk, peer: Int, session: UInt64) throws(SimError) {
        guard kiosk.up else { return }
        if session == 0 {
            guard kiosk.sessions[peer] == nil else { return }
            try feed(kiosk, .openFailed(peer: kiosks[peer].id))
            return
        } else {
            guard kiosk.sessions[peer] == session else { return }
            drop(session, at: kiosk, peer: peer)
        }
        try feed(kiosk, .sessionClosed(peer: kiosks[peer].id))
    }

    /// `kiosk`'s end of `session` (with `peer`) is gone. Once neither end holds it, who dialed it is
    /// forgotten too, so ``initiators`` holds live sessions only, however long a run churns.
    func drop(_ session: UInt64, at kiosk: SimKiosk, peer: Int) {
        kiosk.sessions[peer] = nil
        kiosk.heldFrames[peer] = nil
        if kiosks[peer].sessions[kiosk.index] != session { initiators[session] = nil }
    }

    /// A frame leaves `from` at `time`: lost, duplicated or delayed as the faults say.
    func send(_ message: SyncMessage, from: Int, to: Int, at time: VirtualTime) {
        guard let session = kiosks[from].sessions[to] else {
            sendsWithoutSession += 1
            return
        }
        let faults = options.faults
        if frameRandom.chance(faults.loss) {
            framesLost += 1
            return
        }
        var arrival = network.arrival(from: from, to: to, at: time, bytes: Self.size(of: message))
        if frameRandom.chance(faults.reordering) {
            arrival += frameRandom.int64(in: 0...faults.reorderDelay.nanoseconds)
        }
        let event = SimEvent.deliver(from: from, to: to, session: session, message: message)
        queue.schedule(event, at: arrival)
        if frameRandom.chance(faults.duplication) {
            queue.schedule(event, at: arrival + frameRandom.int64(in: 0...VirtualTime.millisecond))
        }
    }

    func deliver(_ message: SyncMessage, from: Int, to: Int, session: UInt64) throws(SimError) {
        let receiver = kiosks[to]
        guard receiver.up, receiver.sessions[from] == session, network.reachable(from, to) else { return }
        receiver.framesReceived += 1
        if case .revoked(let evidence) = message {
            // The driver's, not the core's: its own store judges it.
            try heardRevocation(evidence, at: receiver) { send($0, from: to, to: from, at: now) }
            return
        }
        if case .deltas(let deltas) = message { receiver.copiesReceived += deltas.count }
        if receiver.paused.contains(from) || receiver.heldFrames[from]?.isEmpty == false {
            receiver.heldFrames[from, default: []].append((message, session))
            return
        }
        try feed(receiver, .frameReceived(from: kiosks[from].id, message))
    }

    /// Bytes on the wire, roughly (no need to encode every frame to time it).
    static func size(of message: SyncMessage) -> Int {
        switch message {
        case .deltas(let deltas): deltas.reduce(40) { $0 + $1.envelope.count + 68 }
        case .hello(_, let heads), .heads(let heads): 60 + heads.count * 72
        case .sessions(let peers): 40 + peers.count * 32
        default: 60
        }
    }
}
