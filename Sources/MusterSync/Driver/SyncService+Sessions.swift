import Foundation
import Logging
import MusterCore
import MusterCrypto
import MusterRules
import MusterTime
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Sessions: one per pair, registered, opened for the core, read under its back-pressure, and reported.
extension SyncService {
    /// One session per pair of kiosks (``SessionPair``).
    func register(_ connection: PeerConnection, dialed: HostPort?, enrollment: EnrollPayload) -> Bool {
        guard !stopped else {
            connection.close()
            return false
        }
        if let dialed { addressPeers[dialed] = connection.peer }
        if let existing = sessions[connection.peer] {
            guard
                SessionPair.keepsNewcomer(
                    dialedBy: connection.initiator,
                    over: existing.initiator,
                    between: me,
                    connection.peer
                )
            else {
                connection.close()
                return false
            }
            existing.close()
        }
        sessions[connection.peer] = connection
        let now = time.wallMillis
        heard.withLock { $0.at[connection.peer] = now }
        peerStates.withLock { states in
            states[connection.peer] = PeerState(
                peer: connection.peer,
                name: enrollment.name,
                location: enrollment.location,
                address: connection.address,
                connectedAtMillis: now,
                lastHeardMillis: now
            )
        }
        // What the peer sent in earlier sessions still counts (``PeerTally``).
        copyCounts(of: connection.peer)
        publishPeers()
        return true
    }

    /// The session is registered and its writer runs: the core says hello (or closes it).
    func opened(_ connection: PeerConnection) {
        guard sessions[connection.peer] === connection else { return }
        drive(.sessionOpened(peer: connection.peer, initiator: connection.initiator))
    }

    func unregister(_ connection: PeerConnection) {
        if sessions[connection.peer] === connection {
            sessions[connection.peer] = nil
            peerStates.withLock { $0[connection.peer] = nil }
            fleet.withLock { $0.ended(connection.peer) }
            printSessionEnded(connection.peer)
            publishPeers()
            drive(.sessionClosed(peer: connection.peer))
            logger.info("session ended", metadata: ["peer": "\(connection.peer)"])
            // Its dial loop, pausing while the session lasted, looks again now.
            for (address, peer) in addressPeers where peer == connection.peer { dials.wake(address) }
        }
    }

    func publishPeers() {
        let names = sessions.values.map { "\($0.peer.hex)@\($0.address)" }.sorted()
        connectedPeers.withLock { $0 = names }
    }

    /// A peer's message for the core. Returns at once unless the core paused reading the peer
    /// (its deltas wait for the store); then once it resumes: the receive loop waits, and that is
    /// the back-pressure on the peer.
    func receive(_ message: SyncMessage, from connection: PeerConnection) async {
        let peer = connection.peer
        guard sessions[peer] === connection else { return }
        drive(.frameReceived(from: peer, message))
        while pausedReading.contains(peer) {
            await withCheckedContinuation { readAheadWaiters[peer, default: []].append($0) }
        }
    }

    /// The core paused or resumed reading a peer.
    func reading(_ peer: AuthorID, paused: Bool) {
        if paused {
            pausedReading.insert(peer)
        } else {
            pausedReading.remove(peer)
            for waiter in readAheadWaiters.removeValue(forKey: peer) ?? [] { waiter.resume() }
        }
    }

    /// Records what a peer's message says about it (liveness, heads, digest).
    nonisolated func note(_ message: SyncMessage, from peer: AuthorID) {
        let now = time.wallMillis
        // A kiosk that was alone says at once that it is no longer.
        if heard.withLock({ $0.heard(peer, at: now) }) { _ = solitude() }
        peerStates.withLock { states in
            guard var state = states[peer] else { return }
            state.lastHeardMillis = now
            switch message {
            case .heads(let heads) where SyncCore.isAcknowledgement(heads, to: me):
                state.peerHas[me] = max(state.peerHas[me] ?? 0, heads[0].seq)
            case .hello(_, let heads), .heads(let heads):
                state.peerHas = Dictionary(heads.map { ($0.author, $0.seq) }, uniquingKeysWith: max)
                peersHold.withLock { held in
                    for head in heads where head.author != me {
                        held[peer, default: [:]][head.author] = max(held[peer]?[head.author] ?? 0, head.seq)
                    }
                }
            case .digest(let digest):
                state.digest = digest
            default:
                break
            }
            states[peer] = state
        }
        noteFleet(message, from: peer)
        notePrint(message, from: peer)
        // Outside the lock: it may write to the replica.
        switch message {
        case .hello(_, let heads), .heads(let heads):
            if let ours = heads.first(where: { $0.author == me }) {
                peerHolds(ours.seq, peer: peer)
                heldElsewhere(ours, by: peer)
            }
        default:
            break
        }
    }

    /// A peer's head of our own chain: what another kiosk is known to hold of ours, the proof
    /// ``RevocationVerdict`` asks for before a wipe. Written when it moves for that peer, at most
    /// once per ``SyncLimits/heldElsewhereWriteInterval`` (``HeldElsewhereReports``).
    nonisolated func heldElsewhere(_ head: AuthorHead, by peer: AuthorID) {
        let now = time.uptime
        guard let due = heldByPeers.withLock({ $0.heard(head, from: peer, now: now) }) else {
            guard let at = heldByPeers.withLock({ $0.flushAt(peer) }) else { return }
            Task {
                try? await time.sleep(until: at)
                guard let head = heldByPeers.withLock({ $0.takeDue(peer) }) else { return }
                record(head, by: peer, at: time.uptime)
            }
            return
        }
        record(due, by: peer, at: now)
    }

    nonisolated func record(_ head: AuthorHead, by peer: AuthorID, at now: Duration) {
        if (try? replica.recordHeldElsewhere(head, by: peer)) == true {
            heldByPeers.withLock { $0.written(head, by: peer, now: now) }
        }
    }

    /// Writes every peer's report of our chain still waiting for its interval: before a revocation
    /// verdict reads them, and when the service stops.
    public nonisolated func recordPendingHeldElsewhere() {
        let now = time.uptime
        for (peer, head) in heldByPeers.withLock({ $0.takePending() }) { record(head, by: peer, at: now) }
    }

    /// Each peer in session with how far apart the two replicas are, for status output.
    public nonisolated func peerReport() -> [PeerReport] {
        let states = peerStates.withLock { Array($0.values) }
        guard !states.isEmpty else { return [] }
        let ours = (try? replica.heads()) ?? []
        // The cached digest: systemd's STATUS= line asks every 10 s, and hashing the whole replica
        // each time would cost an idle kiosk CPU for nothing.
        let digest = currentDigest()
        return states.sorted { $0.name < $1.name }.map { state in
            PeerReport(
                state: state,
                behind: state.behind(ours: ours),
                ahead: state.ahead(ours: ours),
                digestMatches: state.digest.flatMap { theirs in digest.map { $0 == theirs } }
            )
        }
    }
}
