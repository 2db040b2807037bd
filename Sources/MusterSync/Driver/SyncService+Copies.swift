import MusterCore
import Synchronization

/// `ack_copies`: a local write is answered once enough peers hold it (``CopyWaiters``), so a check-in
/// the screen acknowledged survives the loss of this kiosk's disk.
extension SyncService {
    /// Waits until `copies - 1` peers hold every local write published so far (this kiosk's copy is
    /// the first), or `bound` passes. With no peer in session it answers at once (`.alone`), and with
    /// fewer peers in session than asked for it waits for those there are: a write is never held
    /// back for a kiosk that is not there.
    public nonisolated func awaitCopies(_ copies: Int, within bound: Duration) async -> CopyOutcome {
        guard copies > 1 else { return .notAsked }
        let seq = ownPublished.load(ordering: .acquiring)
        let inSession = connectedPeers.withLock { $0.count }
        guard inSession > 0, seq > 0 else { return .alone }
        let peers = min(copies - 1, inSession)
        let timer = Mutex<Task<Void, Never>?>(nil)
        defer { timer.withLock { $0?.cancel() } }
        return await withCheckedContinuation { continuation in
            guard let id = copyWaiters.withLock({ $0.wait(for: seq, peers: peers, continuation) }) else {
                continuation.resume(returning: .held(peers: peers))
                return
            }
            let task = Task { [self] in
                try? await time.sleep(for: bound)
                self.copyWaiters.withLock { $0.giveUp(id) }?.resume(returning: .unanswered)
            }
            timer.withLock { $0 = task }
        }
    }

    /// A peer holds our chain through `seq` (its acknowledgement, or its heads): the writes waiting
    /// for it are answered.
    nonisolated func peerHolds(_ seq: UInt64, peer: AuthorID) {
        for (waiter, holders) in copyWaiters.withLock({ $0.held(seq, by: peer) }) {
            waiter.resume(returning: .held(peers: holders))
        }
    }
}
