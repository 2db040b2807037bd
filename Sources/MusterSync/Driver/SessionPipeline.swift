import MusterTime
import NIOCore

/// Sets up a sync connection's channel, dialed or accepted: the handshake guard first, then the
/// frame decoder held to the guard's limits, then the async channel the session reads.
enum SessionPipeline {
    /// - Parameter unauthenticated: for an accepted connection, the registry that caps connections
    ///   in their handshake; nil for one we dialed. A refused connection is closed at once, but set
    ///   up like any other: a server's child initializer must not fail, or the accept loop ends.
    static func configure(
        _ channel: any Channel,
        unauthenticated: UnauthenticatedConnections?,
        time: any TimeSource = SystemTime()
    ) throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        var slot: (registry: UnauthenticatedConnections, id: UInt64)?
        var refused = false
        if let unauthenticated {
            let (refusal, id) = unauthenticated.admit(channel)
            if refusal == nil { slot = (unauthenticated, id) } else { refused = true }
        }
        let guarded = ConnectionGuard(time: time, slot: slot)
        do {
            try channel.pipeline.syncOperations.addHandler(HandshakeGuardHandler(guarded))
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(guarded: guarded)))
            // Torn down on deinit, not trapped: a child channel accepted as the listener shuts down (or
            // refused and closed here) can become active after the accept loop has ended, and its
            // wrapper is then dropped unused. With `wrappingChannelSynchronously` NIO traps on that
            // ("Deinited NIOAsyncWriter without calling finish()"), which crashed a revoked kiosk on
            // its way down before it left its STOPPED marker (RELIABILITY finding 30). Deprecated in NIO
            // for its deinit-based teardown, which is exactly what an unused connection needs here.
            let wrapped = try NIOAsyncChannel<ByteBuffer, ByteBuffer>(synchronouslyWrapping: channel)
            if refused { channel.close(promise: nil) }
            return wrapped
        } catch {
            guarded.closed()
            channel.close(promise: nil)
            throw error
        }
    }
}
