import MusterTestSupport
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
}
