import MusterTime
import NIOCore

/// Sets up a sync connection's channel, dialed or accepted: the handshake guard first, then the
/// frame decoder held to the guard's limits, then the async channel the session reads.
enum SessionPipeline {
    struct Refused: Error, CustomStringConvertible {
        let reason: HandshakeAdmission.Refusal
        var description: String { "connection refused: \(reason)" }
    }

    /// - Parameter unauthenticated: for an accepted connection, the registry that caps connections
    ///   in their handshake (a refused one throws, which closes it); nil for one we dialed.
    static func configure(
        _ channel: any Channel, unauthenticated: UnauthenticatedConnections?, time: any TimeSource = SystemTime()
    ) throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        var slot: (registry: UnauthenticatedConnections, id: UInt64)?
        if let unauthenticated {
            let (refusal, id) = unauthenticated.admit(channel)
            if let refusal { throw Refused(reason: refusal) }
            slot = (unauthenticated, id)
        }
        let guarded = ConnectionGuard(time: time, slot: slot)
        do {
            try channel.pipeline.syncOperations.addHandler(HandshakeGuardHandler(guarded))
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(guarded: guarded)))
            return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        } catch {
            guarded.closed()
            throw error
        }
    }
}
