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
    /// The slot this connection holds among the unauthenticated ones (accepted connections only).
    let slot: (registry: UnauthenticatedConnections, id: UInt64)?

    init(time: any TimeSource, slot: (registry: UnauthenticatedConnections, id: UInt64)?) {
        self.time = time
        self.slot = slot
        gate = Mutex(HandshakeGate(opened: time.uptime))
    }

    /// Throws when a frame of this size may not come now (see ``HandshakeGate/check(frameLength:)``).
    func check(frameLength: Int) throws(HandshakeGate.Violation) {
        try gate.withLock { gate throws(HandshakeGate.Violation) in try gate.check(frameLength: frameLength) }
    }

    func frameReceived() { gate.withLock { $0.frameReceived() } }

    var phase: HandshakeGate.Phase { gate.withLock { $0.phase } }

    /// The session is established: no more deadline, no more frame cap, and the unauthenticated
    /// slot is free. False when the deadline closed the connection first.
    public func established() -> Bool {
        let open = gate.withLock { $0.established() }
        deadlineTimer.withLock { $0?.cancel() }
        if let slot { slot.registry.release(slot.id) }
        return open
    }

    /// Starts the deadline: when it passes before ``established()``, the channel is closed.
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
/// opens and frees its resources when it closes. The frame size checks are the decoder's.
final class HandshakeGuardHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let guarded: ConnectionGuard

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
}
