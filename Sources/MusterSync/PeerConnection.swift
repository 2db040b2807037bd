import Foundation
import Logging
import MusterCore
import MusterCrypto
import MusterStore
import NIOCore
import Synchronization

/// One established, encrypted session with a peer kiosk: the write side. It seals and writes, in
/// order, what the sync core asked to send this peer (``SyncOutput/send(to:_:)`` and
/// ``SyncOutput/sendRange(to:_:)``), reading ranges from the replica itself.
///
/// An actor, so that messages to one peer are sealed and written in order whoever queues them.
/// Whoever queues (the service driving the core) never waits for this peer's socket: a receive
/// loop that waited for a write could wait forever, two kiosks each blocked writing to the other.
actor PeerConnection {
    /// One queued send and what it weighs against the peer's queue (see ``SyncOutput/queueWeight``).
    enum Outgoing: Sendable {
        case message(SyncMessage)
        case range(SeqRange)
    }

    let peer: AuthorID
    /// Who dialed: decides which of two duplicate sessions survives.
    let initiator: AuthorID
    let address: String
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let channel: any Channel
    private let sender: SecretStreamSender
    private let replica: Replica
    private let logger: Logger
    private let outgoing: AsyncStream<(Outgoing, weight: Int)>
    private let outgoingContinuation: AsyncStream<(Outgoing, weight: Int)>.Continuation
    /// Items queued and not yet written: the writer reports its sums when this reaches zero.
    private let pendingItems = Atomic<Int>(0)
    /// A write failed: the session is over, the rest is dropped (and logged once, here).
    private var failed = false

    init(
        peer: AuthorID,
        initiator: AuthorID,
        address: String,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        channel: any Channel,
        sender: sending SecretStreamSender,
        replica: Replica,
        logger: Logger
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

    /// Queues a send for ``runOutgoing(written:)``; never waits.
    nonisolated func enqueue(_ item: Outgoing, weight: Int) {
        pendingItems.add(1, ordering: .relaxed)
        outgoingContinuation.yield((item, weight))
    }

    /// Writes what was queued, in order, for the session's life. `written` is told the weight written
    /// (or dropped after a failure), in sums: whenever the queue runs dry, and at least every
    /// ``SyncLimits/batchSize`` deltas, so the core's queue accounting follows without a hop per frame.
    func runOutgoing(written: @Sendable (Int) async -> Void) async {
        var unreported = 0
        var iterator = outgoing.makeAsyncIterator()
        while let (item, weight) = await iterator.next() {
            await perform(item)
            unreported += weight
            let left = pendingItems.subtract(1, ordering: .relaxed).newValue
            if unreported >= SyncLimits.batchSize || left == 0 {
                if unreported > 0 { await written(unreported) }
                unreported = 0
            }
        }
        if unreported > 0 { await written(unreported) }
    }

    /// Ends ``runOutgoing(written:)`` (the session is over).
    nonisolated func finishOutgoing() { outgoingContinuation.finish() }

    /// Seals and writes one message now (the handshake's tail and the roster, before the queue runs).
    func send(_ message: SyncMessage) async throws {
        let sealed = try sender.seal(message.encode())
        // Frames must reach the socket in the order they were sealed (secretstream refuses any
        // other). Calling the writer leaves the actor before the frame is queued, so two sends
        // (the session's hello and the queue's first frame) could swap: each write waits for the
        // one sealed before it.
        let previous = lastWrite
        let write = Task { [outbound] in
            _ = await previous?.result
            try await outbound.write(.frame(sealed))
        }
        lastWrite = write
        try await write.value
    }

    /// The write of the frame sealed last (see ``send(_:)``).
    private var lastWrite: Task<Void, any Error>?

    private func perform(_ item: Outgoing) async {
        guard !failed else { return }
        do {
            switch item {
            case .message(.deltas(let deltas)):
                for start in stride(from: 0, to: deltas.count, by: SyncLimits.batchSize) {
                    try await send(.deltas(Array(deltas[start..<min(start + SyncLimits.batchSize, deltas.count)])))
                }
            case .message(let message):
                try await send(message)
            case .range(let range):
                var from = range.after
                while from < range.through {
                    let limit = Int(clamping: min(UInt64(SyncLimits.batchSize), range.through - from))
                    let page = try replica.deltas(of: range.author, after: from, limit: limit)
                    guard let last = page.last else { break }
                    try await send(.deltas(page))
                    from = last.seq
                }
            }
        } catch {
            failed = true
            logger.info("session write failed; closing", metadata: ["peer": "\(peer)", "error": "\(error)"])
            close()
        }
    }
}
