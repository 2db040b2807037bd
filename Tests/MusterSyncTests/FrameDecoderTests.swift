import MusterTestSupport
import MusterTime
import NIOCore
import NIOEmbedded
import NIOTestUtils
import Testing

@testable import MusterSync

/// The sync stream's length-prefixed frames, decoded without a socket: NIOTestUtils'
/// `ByteToMessageDecoderVerifier` feeds every input whole, byte by byte and all at once.
@Suite("FrameDecoder")
struct FrameDecoderTests {
    static func payload(_ count: Int, _ seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0) ^ seed }
    }

    @Test func framesComeOutWholeHoweverTheBytesArrive() throws {
        let payloads = [Self.payload(0, 0), Self.payload(1, 7), Self.payload(300, 0x5A), Self.payload(2_000, 3)]
        try ByteToMessageDecoderVerifier.verifyDecoder(
            inputOutputPairs: payloads.map { (ByteBuffer.frame($0), [ByteBuffer(bytes: $0)]) },
            decoderFactory: { FrameDecoder() }
        )
    }

    @Test func twoFramesInOneWriteAreTwoMessages() throws {
        var both = ByteBuffer.frame(Self.payload(5, 1))
        var second = ByteBuffer.frame(Self.payload(9, 2))
        both.writeBuffer(&second)
        try ByteToMessageDecoderVerifier.verifyDecoder(
            inputOutputPairs: [(both, [ByteBuffer(bytes: Self.payload(5, 1)), ByteBuffer(bytes: Self.payload(9, 2))])],
            decoderFactory: { FrameDecoder() }
        )
    }

    @Test func aFrameOverTheLimitIsRefusedBeforeItsBytesArrive() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        var header = ByteBuffer()
        header.writeInteger(SyncLimits.maxFrameBytes + 1)
        #expect(throws: FrameDecoder.FrameTooLarge.self) { try channel.writeInbound(header) }
        _ = try? channel.finish()
    }

    @Test func aFrameAtTheLimitIsAccepted() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        let payload = [UInt8](repeating: 0xAB, count: Int(SyncLimits.maxFrameBytes))
        try channel.writeInbound(ByteBuffer.frame(payload))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: payload))
        #expect(try channel.finish().isClean)
    }

    /// Counts the socket reads that get past the guard (it sits next to the channel's head).
    final class ReadCounter: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = ByteBuffer
        let reads = Locked(0)
        func read(context: ChannelHandlerContext) {
            reads.mutate { $0 += 1 }
            context.read()
        }
    }

    /// A guarded pipeline as ``SessionPipeline`` builds it, on an embedded channel and a manual clock.
    static func guardedChannel() throws -> (EmbeddedChannel, ConnectionGuard, ReadCounter) {
        let guarded = ConnectionGuard(time: ManualClock(), slot: nil)
        let counter = ReadCounter()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHandler(HandshakeGuardHandler(guarded))
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(guarded: guarded)))
        for size in HandshakeGate.handshakeFrames {
            try channel.writeInbound(ByteBuffer.frame(Self.payload(size, 1)))
            _ = try channel.readInbound(as: ByteBuffer.self)
        }
        return (channel, guarded, counter)
    }

    @Test func anEightMiBFrameInPlaceOfCredentialsClosesTheConnectionAtItsPrefix() throws {
        let (channel, _, _) = try Self.guardedChannel()
        var header = ByteBuffer()
        header.writeInteger(SyncLimits.maxFrameBytes - 1)
        #expect(throws: HandshakeGate.Violation.self) { try channel.writeInbound(header) }
        _ = try? channel.finish()
    }

    @Test func whatComesBehindTheCredentialsIsReadOnlyOnceThePeerIsAdmitted() throws {
        let (channel, guarded, counter) = try Self.guardedChannel()
        let credentials = Self.payload(500, 2)
        let roster = Self.payload(SyncLimits.maxCredentialsFrameBytes + 1_000, 3)
        var bytes = ByteBuffer.frame(credentials)
        var behind = ByteBuffer.frame(roster)
        bytes.writeBuffer(&behind)
        try channel.writeInbound(bytes)
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: credentials))
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil, "a frame was read before the verdict")
        // While it waits, the socket is not read.
        let readsBefore = counter.reads.get()
        channel.read()
        #expect(counter.reads.get() == readsBefore)
        #expect(guarded.admitted(rekey: false, on: channel))
        channel.embeddedEventLoop.run()
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: roster))
        #expect(counter.reads.get() == readsBefore + 1, "the held read goes on after the verdict")
        #expect(try channel.finish().isClean)
    }
}
