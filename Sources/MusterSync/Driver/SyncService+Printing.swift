import MusterCore
import Synchronization

/// `[badge] fallback`: a self-service badge this kiosk cannot print goes to a named peer's printer
/// through the session (``RelayedPrint``), and the peer's badge delta keeps the reprint guard one
/// per attendee venue-wide.
extension SyncService {
    /// How long a kiosk asked to print waits for the asker's check-in to arrive before it decides
    /// without it (and refuses: a badge follows a check-in).
    static let relayedCheckInWait: Duration = .seconds(3)

    /// Asks the peer named `name` (its roster name, or its location) to print the self-service badge
    /// of `attendeeKey`, and waits for its reply up to `bound`.
    ///
    /// Answered not printed at once when no such peer is in session, or when it has not shown it
    /// reads 0.6.5's messages (an older kiosk would ignore the request; ``FleetStatuses``).
    public func printOnPeer(named name: String, attendeeKey: String, within bound: Duration) async -> RelayedPrintReply
    {
        let readers = fleet.withLock { $0.readers }
        let wanted = name.lowercased()
        let peer = peerStates.withLock { states in
            states.first { $0.value.name.lowercased() == wanted && readers.contains($0.key) }?.key
                ?? states.first { $0.value.location.lowercased() == wanted && readers.contains($0.key) }?.key
        }
        guard let peer, let session = sessions[peer] else {
            return RelayedPrintReply(id: 0, outcome: .notPrinted, message: "\(name) is not in session with this kiosk")
        }
        let after = (try? replica.head(of: me).seq) ?? 0
        let timer = Mutex<Task<Void, Never>?>(nil)
        defer { timer.withLock { $0?.cancel() } }
        return await withCheckedContinuation { continuation in
            let id = printRelays.withLock { $0.ask(peer, continuation) }
            let task = Task { [self] in
                try? await time.sleep(for: bound)
                let reply = RelayedPrintReply(id: id, outcome: .notPrinted, message: "\(name) did not answer in time")
                self.printRelays.withLock { $0.giveUp(id) }?.resume(returning: reply)
            }
            timer.withLock { $0 = task }
            let request = RelayedPrint(id: id, attendeeKey: attendeeKey, after: after)
            Task { try? await session.send(.printRequest(request)) }
        }
    }

    /// Prints peers' badges with `service` (the daemon's badge desk) from now on.
    public nonisolated func servePrints(_ service: @escaping @Sendable (RelayedPrint) async -> RelayedPrintReply) {
        printService.withLock { $0 = service }
    }

    /// A peer's print request is served; its reply answers the request waiting for it.
    nonisolated func notePrint(_ message: SyncMessage, from peer: AuthorID) {
        switch message {
        case .printRequest(let request):
            Task { await self.serve(request, for: peer) }
        case .printReply(let reply):
            printRelays.withLock { $0.replied(reply.id, by: peer) }?.resume(returning: reply)
        default:
            break
        }
    }

    /// Prints `request` for `peer` once this kiosk holds the check-in it follows, one at a time per
    /// peer, and replies.
    func serve(_ request: RelayedPrint, for peer: AuthorID) async {
        let reply: RelayedPrintReply
        if let service = printService.withLock({ $0 }) {
            if printRelays.withLock({ $0.serve(peer) }) {
                await awaitHeld(peer, through: request.after, within: Self.relayedCheckInWait)
                reply = await service(request)
                printRelays.withLock { $0.served(peer) }
            } else {
                reply = RelayedPrintReply(
                    id: request.id,
                    outcome: .notPrinted,
                    message: "busy with this kiosk's last badge"
                )
            }
        } else {
            reply = RelayedPrintReply(id: request.id, outcome: .notPrinted, message: "this kiosk prints no badges")
        }
        logger.info(
            "badge printed for a peer",
            metadata: ["peer": "\(peer)", "outcome": "\(reply.outcome)", "job": "\(reply.job)"]
        )
        try? await sessions[peer]?.send(.printReply(reply))
    }

    /// Waits until the replica holds `author`'s chain through `seq`, or `bound` passes.
    nonisolated func awaitHeld(_ author: AuthorID, through seq: UInt64, within bound: Duration) async {
        let deadline = time.deadline(after: bound)
        while ((try? replica.head(of: author).seq) ?? 0) < seq, time.uptime < deadline {
            try? await time.sleep(for: .milliseconds(20))
        }
    }

    /// `peer`'s session ended: the badges asked of it will not come.
    nonisolated func printSessionEnded(_ peer: AuthorID) {
        for waiter in printRelays.withLock({ $0.ended(peer) }) {
            waiter.resume(returning: RelayedPrintReply(id: 0, outcome: .notPrinted, message: "the session ended"))
        }
    }
}
