import Foundation
import MusterControl
import MusterRules
import MusterTestSupport
import NIOCore
import NIOEmbedded
import NIOPosix
import NIOTestUtils
import Testing

@testable import MusterDaemon

// Two ways to drive the decoder: NIOTestUtils' `ByteToMessageDecoderVerifier` (every split of the
// input, drip-fed and all at once, no socket), and a real NIOPosix pipeline on a Unix socket, where a
// fixed, tiny receive buffer forces every line across many reads and the limit closes the connection.

private enum DecoderEvent: Equatable, Sendable {
    case line(String)
    case tooLong(String)
    case error(String)
    case closed
}

private final class Collector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let events: AsyncStream<DecoderEvent>.Continuation

    init(_ events: AsyncStream<DecoderEvent>.Continuation) { self.events = events }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        events.yield(.line(String(buffer: unwrapInboundIn(data))))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let tooLong = error as? LineFrameDecoder.LineTooLong {
            events.yield(.tooLong(tooLong.description))
        } else {
            events.yield(.error("\(error)"))
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        events.yield(.closed)
        events.finish()
    }
}

/// One connection through `LineFrameDecoder`: the bytes are sent in the given chunks, then the
/// client closes, and every event the server side saw is returned (ending with `.closed`).
private func decode(
    _ chunks: [String],
    limit: Int,
    readSize: Int = 4
) async throws -> [DecoderEvent] {
    let dir = try TemporaryDirectory("muster-lfd")
    defer { dir.remove() }
    let path = dir.file("s")
    let (stream, continuation) = AsyncStream.makeStream(of: DecoderEvent.self)
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .childChannelOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: readSize))
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(LineFrameDecoder(maxLineBytes: limit))
                )
                try channel.pipeline.syncOperations.addHandler(Collector(continuation))
            }
        }
        .bind(unixDomainSocketPath: path).get()

    let client = try RawSocket(path: path)
    for chunk in chunks { client.send(chunk) }
    client.close()

    var events: [DecoderEvent] = []
    for await event in stream { events.append(event) }
    try await server.close()
    return events
}

@Suite("LineFrameDecoder")
struct LineFrameDecoderTests {
    /// The lines of `text` as the decoder hands them on.
    static func lines(_ lines: String...) -> [ByteBuffer] { lines.map { ByteBuffer(string: $0) } }

    @Test func verifierSplitsLinesHoweverTheBytesArrive() throws {
        try ByteToMessageDecoderVerifier.verifyDecoder(
            stringInputOutputPairs: [
                ("{\"op\":\"ping\"}\n", Self.lines("{\"op\":\"ping\"}")),
                ("second\n\nthird\n", Self.lines("second", "", "third")),
                ("José Álvarez – Café\n", Self.lines("José Álvarez – Café")),
                (String(repeating: "x", count: 16) + "\n", Self.lines(String(repeating: "x", count: 16))),
            ],
            decoderFactory: { LineFrameDecoder(maxLineBytes: 16 * 4) }
        )
    }

    @Test func aLineOverTheLimitIsAnErrorInAnEmbeddedChannel() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maxLineBytes: 16)))
        #expect(throws: LineFrameDecoder.LineTooLong.self) {
            try channel.writeInbound(ByteBuffer(string: String(repeating: "y", count: 17)))
        }
        _ = try? channel.finish()
    }

    @Test func verifierAcceptsLinesAtTheLimit() throws {
        let line = String(repeating: "x", count: 16)
        try ByteToMessageDecoderVerifier.verifyDecoder(
            stringInputOutputPairs: [(line + "\n", Self.lines(line)), ("ok\n", Self.lines("ok"))],
            decoderFactory: { LineFrameDecoder(maxLineBytes: 16) }
        )
    }

    @Test func splitsLines() async throws {
        let events = try await decode(["{\"op\":\"ping\"}\nsecond\n\nthird\n"], limit: 64)
        #expect(events == [.line("{\"op\":\"ping\"}"), .line("second"), .line(""), .line("third"), .closed])
    }

    @Test func lineSplitAcrossReadsAndWrites() async throws {
        let events = try await decode(["hel", "lo wo", "rld\nne", "xt\n"], limit: 64, readSize: 3)
        #expect(events == [.line("hello world"), .line("next"), .closed])
    }

    @Test func multiByteUTF8SplitAcrossReadsIsKeptWhole() async throws {
        let events = try await decode(["José Álvarez – Café\n"], limit: 64, readSize: 1)
        #expect(events == [.line("José Álvarez – Café"), .closed])
    }

    @Test func lineAtTheLimitIsAccepted() async throws {
        let line = String(repeating: "x", count: 16)
        let events = try await decode([line + "\n" + "ok\n"], limit: 16, readSize: 4)
        #expect(events == [.line(line), .line("ok"), .closed])
    }

    @Test func lineOverTheLimitIsAnErrorThatClosesTheConnection() async throws {
        let events = try await decode(
            ["ok\n", String(repeating: "y", count: 40), "\nnever\n"],
            limit: 16,
            readSize: 4
        )
        #expect(events.first == .line("ok"))
        #expect(events.contains(.tooLong("control request exceeds 16 bytes")))
        #expect(!events.contains(.line("never")))
        #expect(events.last == .closed)
    }

    @Test func finalLineWithoutNewlineIsDeliveredAtEOF() async throws {
        let events = try await decode(["a\nlast"], limit: 64)
        #expect(events == [.line("a"), .line("last"), .closed])
    }

    /// The decoder's contract: "a line longer than the limit is an error". It only checks the limit
    /// while no newline is buffered, so a too-long line that arrives in one read with its newline
    /// is passed on.
    @Test func overLimitLineArrivingInOneReadIsStillAnError() async throws {
        let events = try await decode([String(repeating: "z", count: 30) + "\n"], limit: 8, readSize: 256)
        #expect(!events.contains(.line(String(repeating: "z", count: 30))))
    }
}
