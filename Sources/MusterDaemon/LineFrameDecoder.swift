public import NIOCore

/// Splits a byte stream into newline-terminated lines with a hard maximum length.
///
/// A line longer than the limit is an error that closes the connection, so a misbehaving client
/// cannot make the daemon buffer without bound.
///
/// Public so that `muster-fuzz` can drive it through an `EmbeddedChannel` like any other decoder.
public struct LineFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = ByteBuffer

    public struct LineTooLong: Error, CustomStringConvertible {
        public let limit: Int
        public var description: String { "control request exceeds \(limit) bytes" }
    }

    public let maxLineBytes: Int
    private var scanned = 0

    public init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        if let newline = view[(view.startIndex + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            if length > maxLineBytes { throw LineTooLong(limit: maxLineBytes) }
            let line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            scanned = 0
            context.fireChannelRead(Self.wrapInboundOut(line))
            return .continue
        }
        scanned = view.count
        if scanned > maxLineBytes { throw LineTooLong(limit: maxLineBytes) }
        return .needMoreData
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws
        -> DecodingState
    {
        // A final request without a newline is still a request.
        if try decode(context: context, buffer: &buffer) == .continue { return .continue }
        if buffer.readableBytes > 0, let rest = buffer.readSlice(length: buffer.readableBytes) {
            scanned = 0
            context.fireChannelRead(Self.wrapInboundOut(rest))
        }
        return .needMoreData
    }
}
