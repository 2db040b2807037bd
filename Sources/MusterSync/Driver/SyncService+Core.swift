import Logging
import MusterCore
import MusterRules
import MusterTime

extension SyncService {
    /// Feeds the core one input, now, and carries out what it answers.
    func drive(_ input: SyncInput) {
        let outputs = core.handle(input, now: time.uptime)
        for output in outputs {
            switch output {
            case .send(let peer, let message):
                sessions[peer]?.enqueue(.message(message), weight: output.queueWeight)
            case .sendRange(let peer, let range):
                sessions[peer]?.enqueue(.range(range), weight: output.queueWeight)
            case .store(let group):
                store(group)
            case .pauseReading(let peer):
                reading(peer, paused: true)
            case .resumeReading(let peer):
                reading(peer, paused: false)
            case .readHeads:
                refreshHeads()
            case .readForkEvidence:
                if let evidence = try? replica.forkEvidence(), !evidence.isEmpty { drive(.forkEvidence(evidence)) }
            case .setTimer(let timer, let deadline):
                arm(timer, at: deadline)
            case .openSession(let peer):
                // Dial loops keep a session with every address discovery or the configuration gave;
                // the daemon has no other address book.
                if let address = addressPeers.first(where: { $0.value == peer })?.key {
                    dial(address)
                } else {
                    _ = core.handle(.openFailed(peer: peer), now: time.uptime)
                }
            case .closeSession(let peer, let reason):
                logger.info("closing a session", metadata: ["peer": "\(peer)", "reason": "\(reason)"])
                sessions[peer]?.close()
            }
        }
        if case .frameReceived(let peer, .deltas) = input { copyCounts(of: peer) }
        if case .stored = input {
            for peer in sessions.keys { copyCounts(of: peer) }
        }
    }

    /// `muster status`'s received and already-held counts: the core's tally for the peer's key, which
    /// outlives its sessions (``PeerTally``).
    func copyCounts(of peer: AuthorID) {
        let tally = core.tallies[peer] ?? PeerTally()
        peerStates.withLock { states in
            states[peer]?.deltasReceived = tally.deltasReceived
            states[peer]?.copiesReceived = tally.copiesReceived
        }
    }

    /// Fires `timer` into the core at `deadline` (one task per timer; a new deadline replaces it).
    private func arm(_ timer: SyncTimer, at deadline: Duration) {
        guard !stopped else { return }
        timerTasks[timer]?.cancel()
        let time = self.time
        timerTasks[timer] = Task {
            do {
                try await time.sleep(until: deadline)
            } catch {
                return
            }
            self.fire(timer)
        }
    }

    private func fire(_ timer: SyncTimer) {
        guard !stopped else { return }
        timerTasks[timer] = nil
        drive(.timerFired(timer))
    }
}
