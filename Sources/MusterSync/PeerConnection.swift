import Foundation
import Logging
import MusterCore
import MusterCrypto
import MusterStore
import NIOCore

/// One established, encrypted session with a peer kiosk: owns the outgoing secretstream and the
/// replication state, and carries out the state machine's actions.
///
/// An actor, so that messages to one peer are sealed and written in order whoever sends them
/// (the receive loop, the relay of another session, a local check-in, the anti-entropy timer).
actor PeerConnection {
    let peer: AuthorID
    /// Who dialed: decides which of two duplicate sessions survives.
    let initiator: AuthorID
    let address: String
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let channel: any Channel
    private let sender: SecretStreamSender
    private let replica: Replica
    private let logger: Logger
    private var state = SyncSessionState()
    /// When anything was last sent: a heartbeat is due only after a silence of ours.
    private var lastSent = ContinuousClock.now
    /// The state version and digest this peer was last told about (anti-entropy skips a peer that
    /// already knows both, unless its own digest differs).
    private var announcedVersion: UInt64?
    private var announcedDigest: String?
    /// Deltas and ranges for this peer, written in order by ``runOutgoing()``: whoever offers them
    /// (a receive loop relaying, a local write) never waits for this peer's socket. A receive loop
    /// that waited for a write could wait forever: two kiosks each blocked writing to the other,
    /// neither reading.
    private let outgoing: AsyncStream<[SyncSessionState.Action]>
    private let outgoingContinuation: AsyncStream<[SyncSessionState.Action]>.Continuation
    /// Deltas queued in ``outgoing`` and not yet written (a range counts as one).
    private var queued = 0

    init(
        peer: AuthorID, initiator: AuthorID, address: String, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        channel: any Channel, sender: sending SecretStreamSender, replica: Replica, logger: Logger
    ) {
        self.peer = peer
        self.initiator = initiator
        self.address = address
        self.outbound = outbound
        self.channel = channel
        self.sender = sender
        self.replica = replica
        self.logger = logger
        (outgoing, outgoingContinuation) = AsyncStream.makeStream()
    }

    nonisolated func close() { channel.close(promise: nil) }

    /// Writes what was queued for this peer, in order, for the session's life.
    func runOutgoing() async {
        for await actions in outgoing {
            queued -= Self.weight(actions)
            await perform(actions)
        }
    }

    /// Ends ``runOutgoing()`` (the session is over).
    nonisolated func finishOutgoing() { outgoingContinuation.finish() }

    /// Queues sends for ``runOutgoing()``. A peer that lets more than ``SyncLimits/maxQueuedDeltas``
    /// pile up is disconnected: it catches up from its heads when it comes back.
    private func enqueue(_ actions: [SyncSessionState.Action]) {
        guard !actions.isEmpty else { return }
        queued += Self.weight(actions)
        if queued > SyncLimits.maxQueuedDeltas {
            logger.notice("peer is not reading; closing the session", metadata: ["peer": "\(peer)", "queued": "\(queued)"])
            close()
            return
        }
        outgoingContinuation.yield(actions)
    }

    private static func weight(_ actions: [SyncSessionState.Action]) -> Int {
        actions.reduce(0) { total, action in
            if case .send(let deltas) = action { return total + deltas.count }
            return total + 1
        }
    }

    func send(_ message: SyncMessage) async throws {
        let sealed = try sender.seal(message.encode())
        lastSent = .now
        if case .digest(let digest) = message { announcedDigest = digest }
        try await outbound.write(.frame(sealed))
    }

    /// How long until a heartbeat is due (zero when it is).
    func untilHeartbeat() -> Duration {
        max(.zero, SyncLimits.heartbeatInterval - (ContinuousClock.now - lastSent))
    }

    /// Sends a heartbeat if nothing was sent for `idle`. A ping received is answered with one
    /// when half an interval passed since our last frame, so the two sides' heartbeats fall into
    /// one exchange per interval (the answer carries the TCP ACK of the ping) instead of two.
    func pingIfIdle(for idle: Duration = SyncLimits.heartbeatInterval) async throws {
        guard ContinuousClock.now - lastSent >= idle else { return }
        try await send(.ping)
    }

    /// Anti-entropy for this peer: heads and digest, unless the peer was already told about this
    /// state version and its digest equals ours (an idle, agreeing pair says nothing but heartbeats).
    func antiEntropy(version: UInt64, digest: String?, peerDigest: String?) async throws {
        if announcedVersion == version, let digest, peerDigest == digest, announcedDigest == digest { return }
        announcedVersion = version
        try await sendHeads()
        if let digest, digest != announcedDigest { try await send(.digest(digest)) }
    }

    func sendHello(epoch: String) async throws {
        try await send(.hello(epoch: epoch, heads: organizerFirst(try replica.heads())))
    }

    /// The organizer's log first: it may revoke authors of the others.
    private func organizerFirst(_ heads: [AuthorHead]) -> [AuthorHead] {
        let organizer = replica.policy.organizer
        return heads.filter { $0.author == organizer } + heads.filter { $0.author != organizer }
    }

    func sendHeads() async throws {
        try await send(.heads(try replica.heads()))
    }

    /// New deltas here, written locally (`sender` nil) or heard from `sender`: pushes what this
    /// peer lacks and will not hear from `sender` itself.
    func offer(_ deltas: [SignedDelta], from sender: AuthorID?) {
        enqueue(state.offer(deltas, from: sender))
    }

    /// Handles one message from the peer. `ingest` stores deltas and returns the rejections; roster
    /// and revocation messages go to the service (they concern every session).
    func handle(
        _ message: SyncMessage, ingest: ([SignedDelta]) async -> [ReplicaError],
        roster: ([SignedDelta]) async -> Void, revoked: (SignedDelta) async -> Void
    ) async {
        let actions: [SyncSessionState.Action]
        switch message {
        case .hello(let epoch, let heads):
            if let known = state.peerEpoch, known != epoch {
                logger.notice("peer replica was recreated; sending everything again", metadata: ["peer": "\(peer)"])
            }
            actions = state.peerHeads(heads, epoch: epoch, ours: organizerFirst((try? replica.heads()) ?? []))
        case .heads(let heads):
            actions = state.peerHeads(heads, epoch: nil, ours: organizerFirst((try? replica.heads()) ?? []))
        case .deltas(let deltas):
            actions = state.received(deltas)
        case .ping:
            try? await pingIfIdle(for: SyncLimits.heartbeatInterval / 2)
            actions = []
        case .sessions(let peers):
            state.peerSessions(peers)
            actions = []
        case .pong, .credentials, .digest, .want, .graft, .prune, .ihave:
            actions = []
        case .roster(let certificates):
            await roster(certificates)
            actions = []
        case .revoked(let evidence):
            await revoked(evidence)
            actions = []
        }
        await performReceived(actions, ingest: ingest)
    }

    /// Carries out what a received message calls for: storing happens here, in the receive loop
    /// (which waits for it: that is the back-pressure on the peer); every send is queued.
    private func performReceived(
        _ actions: [SyncSessionState.Action], ingest: ([SignedDelta]) async -> [ReplicaError]
    ) async {
        for action in actions {
            if case .ingest(let deltas) = action {
                let rejected = await ingest(deltas)
                enqueue(state.ingested(rejected: rejected))
            } else {
                enqueue([action])
            }
        }
    }

    /// Writes queued sends (``runOutgoing()``); storing is the receive loop's (``performReceived``).
    private func perform(_ actions: [SyncSessionState.Action]) async {
        do {
            for action in actions {
                switch action {
                case .send(let deltas):
                    for start in stride(from: 0, to: deltas.count, by: SyncLimits.batchSize) {
                        try await send(.deltas(Array(deltas[start..<min(start + SyncLimits.batchSize, deltas.count)])))
                    }
                case .sendRange(let author, let after):
                    var from = after
                    while true {
                        let page = try replica.deltas(of: author, after: from, limit: SyncLimits.batchSize)
                        guard let last = page.last else { break }
                        try await send(.deltas(page))
                        from = last.seq
                    }
                case .ingest:
                    break  // never queued: performReceived stores in the receive loop
                case .sendHeads:
                    try await sendHeads()
                case .sendPong:
                    try await send(.pong)
                }
            }
        } catch {
            logger.info("session write failed; closing", metadata: ["peer": "\(peer)", "error": "\(error)"])
            close()
        }
    }
}
