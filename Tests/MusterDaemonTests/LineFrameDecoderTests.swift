import Foundation
import MusterControl
import MusterStore
import NIOCore
import NIOPosix
import Testing

@testable import MusterDaemon

// NIOEmbedded is not a dependency of this test target, so the decoder runs in a real NIOPosix
// pipeline on a Unix socket. A fixed, tiny receive buffer forces every line across many reads.

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

    let fd = try RawClient.connect(path)
    for chunk in chunks { _ = RawClient.send(fd, Array(chunk.utf8)) }
    close(fd)

    var events: [DecoderEvent] = []
    for await event in stream { events.append(event) }
    try await server.close()
    return events
}

enum RawClient {
    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket() failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            throw FixtureError("connect failed: \(String(cString: strerror(errno)))")
        }
        return fd
    }

    /// Sends everything it can; stops quietly when the peer has closed (no SIGPIPE).
    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += sent
        }
        return offset
    }
}

@Suite("LineFrameDecoder")
struct LineFrameDecoderTests {
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
