import Foundation
import Logging
import MusterCore
import MusterCrypto
import MusterRules
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
    /// What the core queued and the writer has not taken yet, and the writer when it waits for more.
    private let queue = Mutex(OutgoingQueue())
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
    }

    nonisolated func close() { channel.close(promise: nil) }

    /// Queues a send for ``runOutgoing(written:)``; never waits.
    nonisolated func enqueue(_ item: Outgoing, weight: Int) {
        let writer = queue.withLock { queue -> CheckedContinuation<Void, Never>? in
            guard !queue.finished else { return nil }
            queue.items.append((item, weight))
            defer { queue.writer = nil }
            return queue.writer
        }
        writer?.resume()
    }

    /// Writes what was queued, in order, for the session's life. It takes everything queued at once:
    /// consecutive delta messages become one frame (up to ``SyncLimits/batchSize`` deltas) and the
    /// frames go out with one flush. A kiosk behind on a peer thus catches up in fewer, fuller frames
    /// (one transaction each on the peer) instead of falling further behind one delta per frame.
    /// `written` is told each batch's weight (written, or dropped after a failure).
    func runOutgoing(written: @Sendable (Int) async -> Void) async {
        while let batch = await nextBatch() {
            await perform(batch.map(\.item))
            let weight = batch.reduce(0) { $0 + $1.weight }
            if weight > 0 { await written(weight) }
        }
    }

    /// Everything queued, waiting for something if nothing is; nil once the session is over.
    private func nextBatch() async -> [(item: Outgoing, weight: Int)]? {
        while true {
            let taken = queue.withLock { queue -> [(item: Outgoing, weight: Int)]? in
                defer { queue.items.removeAll(keepingCapacity: true) }
                return queue.items.isEmpty && queue.finished ? nil : queue.items
            }
            guard let taken else { return nil }
            if !taken.isEmpty { return taken }
            await withCheckedContinuation { (writer: CheckedContinuation<Void, Never>) in
                let ready = queue.withLock { queue in
                    if !queue.items.isEmpty || queue.finished { return true }
                    queue.writer = writer
                    return false
                }
                if ready { writer.resume() }
            }
        }
    }

    /// Ends ``runOutgoing(written:)`` once what is queued is written (the session is over).
    nonisolated func finishOutgoing() {
        let writer = queue.withLock { queue -> CheckedContinuation<Void, Never>? in
            queue.finished = true
            defer { queue.writer = nil }
            return queue.writer
        }
        writer?.resume()
    }

    /// Seals and writes one message now (the handshake's tail and the roster, before the queue runs).
    func send(_ message: SyncMessage) async throws {
        try await write([sender.seal(message.encode())])
    }

    /// Writes sealed frames with one flush.
    ///
    /// Frames must reach the socket in the order they were sealed (secretstream refuses any other).
    /// Calling the writer leaves the actor before the frames are queued, so two writes (the session's
    /// hello and the queue's first batch) could swap: each write waits for the one sealed before it.
    private func write(_ frames: [[UInt8]]) async throws {
        let previous = lastWrite
        let write = Task { [outbound] in
            _ = await previous?.result
            try await outbound.write(contentsOf: frames.map { ByteBuffer.frame($0) })
        }
        lastWrite = write
        try await write.value
    }

    /// The write of the frames sealed last (see ``write(_:)``).
    private var lastWrite: Task<Void, any Error>?

    /// Seals a batch of queued sends, coalescing consecutive delta messages, and writes the frames
    /// (flushing every ``framesPerFlush`` so a long range is not held in memory whole).
    private func perform(_ items: [Outgoing]) async {
        guard !failed else { return }
        var frames: [[UInt8]] = []
        var deltas: [SignedDelta] = []
        do {
            func sealDeltas() throws {
                for start in stride(from: 0, to: deltas.count, by: SyncLimits.batchSize) {
                    let page = Array(deltas[start..<min(start + SyncLimits.batchSize, deltas.count)])
                    frames.append(try sender.seal(SyncMessage.deltas(page).encode()))
                }
                deltas.removeAll(keepingCapacity: true)
            }
            for item in items {
                switch item {
                case .message(.deltas(let more)):
                    deltas += more
                    continue
                case .message(let message):
                    try sealDeltas()
                    frames.append(try sender.seal(message.encode()))
                case .range(let range):
                    try sealDeltas()
                    var from = range.after
                    while from < range.through {
                        let limit = Int(clamping: min(UInt64(SyncLimits.batchSize), range.through - from))
                        let page = try replica.deltas(of: range.author, after: from, limit: limit)
                        guard let last = page.last else { break }
                        frames.append(try sender.seal(SyncMessage.deltas(page).encode()))
                        from = last.seq
                        if frames.count >= Self.framesPerFlush {
                            try await write(frames)
                            frames.removeAll(keepingCapacity: true)
                        }
                    }
                }
            }
            try sealDeltas()
            if !frames.isEmpty { try await write(frames) }
        } catch {
            failed = true
            // A write to a channel already closed (by shutdown, a replacing session or the peer) is the
            // session's end, which `SyncService` logs once as "session ended"; only a write that failed
            // on an open channel says something more.
            if (error as? ChannelError) != .ioOnClosedChannel {
                logger.info("session write failed; closing", metadata: ["peer": "\(peer)", "error": "\(error)"])
            }
            close()
        }
    }

    /// Frames written between two flushes at most.
    static let framesPerFlush = 16
}

/// ``PeerConnection``'s queue: the sends the core asked for, in order, and the writer waiting for them.
struct OutgoingQueue: ~Copyable {
    var items: [(item: PeerConnection.Outgoing, weight: Int)] = []
    var writer: CheckedContinuation<Void, Never>?
    var finished = false
}
