import MusterTime
import NIOCore
import Synchronization

/// One connection's ``HandshakeGate``, shared by its frame decoder (on the event loop), its
/// deadline timer and the session code that establishes it (off the loop); and, for an accepted
/// connection, its slot in ``UnauthenticatedConnections``.
public final class ConnectionGuard: Sendable {
    private let gate: Mutex<HandshakeGate>
    private let time: any TimeSource
    private let deadlineTimer = Mutex<Task<Void, Never>?>(nil)
    /// Whether a read was held back while a frame waited (see ``mayRead()``).
    private let heldRead = Mutex(false)
    /// The slot this connection holds among the unauthenticated ones (accepted connections only).
    let slot: (registry: UnauthenticatedConnections, id: UInt64)?

    init(time: any TimeSource, slot: (registry: UnauthenticatedConnections, id: UInt64)?) {
        self.time = time
        self.slot = slot
        gate = Mutex(HandshakeGate(opened: time.uptime))
    }

    /// Throws when a frame of this size may not come now (see ``HandshakeGate/check(frameLength:)``).
    func check(frameLength: Int) throws(HandshakeGate.Violation) -> HandshakeGate.Decision {
        try gate.withLock { gate throws(HandshakeGate.Violation) in try gate.check(frameLength: frameLength) }
    }

    func frameReceived() { gate.withLock { $0.frameReceived() } }

    var phase: HandshakeGate.Phase { gate.withLock { $0.phase } }

    /// A read of the socket was asked for: false, and remembered, while a frame waits for the peer to
    /// be admitted. Called on the event loop.
    func mayRead() -> Bool {
        guard gate.withLock({ $0.holdsReads }) else { return true }
        heldRead.withLock { $0 = true }
        return false
    }

    /// The read held back by ``mayRead()``, if any, now that reading goes on. Called on the event loop.
    func takeHeldRead() -> Bool {
        heldRead.withLock { held in
            defer { held = false }
            return held
        }
    }

    /// The peer was admitted: no more deadline, its unauthenticated slot is free, and frames are
    /// read again up to the session's limit (a rekey session's when `rekey`). False when the deadline
    /// closed the connection first.
    public static func admitted(_ channel: any Channel, rekey: Bool) async throws -> Bool {
        try await of(channel).admitted(rekey: rekey, on: channel)
    }

    /// ``admitted(_:rekey:)`` for the guard of `channel`.
    func admitted(rekey: Bool, on channel: any Channel) -> Bool {
        let (open, held) = gate.withLock { gate in
            let held = gate.holdsReads
            return (gate.admitted(rekey: rekey), held)
        }
        deadlineTimer.withLock { $0?.cancel() }
        if let slot { slot.registry.release(slot.id) }
        if held { channel.pipeline.fireUserInboundEventTriggered(HandshakeGuardHandler.ResumeReading()) }
        return open
    }

    /// The peer was refused as revoked: one more frame, its appeal, may be read under the
    /// credentials' cap; the deadline still runs. False when the connection is closing.
    public static func awaitAppeal(_ channel: any Channel) async throws -> Bool {
        let connection = try await of(channel)
        let (open, held) = connection.gate.withLock { gate in
            let held = gate.holdsReads
            return (gate.appealing(), held)
        }
        if open, held { channel.pipeline.fireUserInboundEventTriggered(HandshakeGuardHandler.ResumeReading()) }
        return open
    }

    /// Starts the deadline: when it passes before the peer is admitted, the channel is closed.
    func armDeadline(_ channel: any Channel) {
        let deadline = gate.withLock { $0.deadline }
        let task = Task {
            try? await self.time.sleep(until: deadline)
            guard !Task.isCancelled, self.gate.withLock({ $0.expired(now: self.time.uptime) }) != nil else { return }
            channel.close(promise: nil)
        }
        deadlineTimer.withLock { $0 = task }
    }

    /// The connection ended: its timer and its slot go.
    func closed() {
        deadlineTimer.withLock { $0?.cancel() }
        if let slot { slot.registry.release(slot.id) }
    }

    /// The guard of a channel set up by ``SessionPipeline``, from outside the event loop.
    public static func of(_ channel: any Channel) async throws -> ConnectionGuard {
        try await channel.pipeline.handler(type: HandshakeGuardHandler.self).get().guarded
    }
}

/// First handler of every sync connection: starts the handshake deadline when the connection
/// opens and frees its resources when it closes; holds back reads of the socket while a frame waits
/// for the peer to be admitted, so what waits is at most what one read brought in. The frame size
/// checks are the decoder's.
final class HandshakeGuardHandler: ChannelDuplexHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let guarded: ConnectionGuard

    /// Sent down the pipeline once a peer whose frame waited is admitted: read again.
    struct ResumeReading: Sendable {}

    init(_ guarded: ConnectionGuard) { self.guarded = guarded }

    func handlerAdded(context: ChannelHandlerContext) {
        guarded.armDeadline(context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        guarded.closed()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        guarded.closed()
    }

    func read(context: ChannelHandlerContext) {
        guard guarded.mayRead() else { return }
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ResumeReading else { return context.fireUserInboundEventTriggered(event) }
        // The decoder looks again at what it already holds (the frame that waited), then reading goes on.
        context.fireChannelRead(wrapInboundOut(ByteBuffer()))
        if guarded.takeHeldRead() { context.read() }
    }
}
