import NIOCore

/// A connection's frames, one at a time, each noted as life (``LastHeard``). Used by the one task
/// that serves the connection.
final class FrameReader {
    private var frames: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let heard: LastHeard

    init(_ frames: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, heard: LastHeard) {
        self.frames = frames
        self.heard = heard
    }

    /// The next whole frame; throws once the connection ended.
    func next() async throws -> [UInt8] {
        guard let frame = try await frames.next() else { throw SyncError.closed }
        heard.now()
        return Array(frame.readableBytesView)
    }
}
