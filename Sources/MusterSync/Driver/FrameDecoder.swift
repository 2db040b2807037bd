public import NIOCore

/// Splits the TCP stream into frames: a 4-byte big-endian length, then that many bytes.
///
/// The hard size limit is enforced before anything is buffered beyond it: a peer that announces a
/// larger frame gets its session closed, and the daemon carries on. At the end of the stream NIO's
/// default `decodeLast` delivers the whole frames still buffered, by the same rules; a partial one is dropped.
///
/// Public so that `muster-fuzz` can drive it through an `EmbeddedChannel` like any other decoder.
public struct FrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = ByteBuffer

    public struct FrameTooLarge: Error, CustomStringConvertible {
        public let size: Int
        public var description: String { "frame of \(size) bytes exceeds the limit of \(SyncLimits.maxFrameBytes)" }
    }

    /// Before the peer is admitted, frames are held to the handshake's sizes and deadline.
    let guarded: ConnectionGuard?

    public init() { guarded = nil }

    init(guarded: ConnectionGuard) { self.guarded = guarded }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        guard length <= SyncLimits.maxFrameBytes else { throw FrameTooLarge(size: Int(length)) }
        // A frame that must wait for the peer's admission stays unread; reading resumes after it.
        if try guarded?.check(frameLength: Int(length)) == .wait { return .needMoreData }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        guarded?.frameReceived()
        context.fireChannelRead(Self.wrapInboundOut(buffer.readSlice(length: Int(length))!))
        return .continue
    }
}

extension ByteBuffer {
    /// A frame: length prefix and payload.
    static func frame(_ payload: some Collection<UInt8>) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(4 + payload.count)
        buffer.writeInteger(UInt32(payload.count))
        buffer.writeBytes(payload)
        return buffer
    }
}
