import MusterSync
import NIOCore
import NIOEmbedded

/// `FrameDecoder`, the first thing a peer's bytes reach, behind `ByteToMessageHandler` in an
/// `EmbeddedChannel`, the stream cut at arbitrary points.
///
/// Checked against a reference reading of the same bytes: exactly the complete frames come out, in
/// order and byte for byte; a frame announcing more than `SyncLimits.maxFrameBytes` fails with
/// `FrameTooLarge` (naming the announced size) as soon as its 4-byte prefix has arrived, not after
/// buffering the body; an incomplete tail can only be reported as left over; nothing else may fail.
final class FrameDecoderTarget: FuzzTarget {
    let name = "frame-decoder"

    var dictionary: [[UInt8]] {
        [
            [0, 0, 0, 0], [0, 0x80, 0, 0], [0, 0x80, 0, 1], [0, 0x7F, 0xFF, 0xFF], [0xFF, 0xFF, 0xFF, 0xFF],
            [0, 0, 0, 1],
        ]
    }

    /// What a correct decoder does with `bytes`.
    private struct Expectation {
        var frames: [ArraySlice<UInt8>] = []
        /// Stream offset at which a too-large prefix is complete, and the size it announces.
        var tooLarge: (offset: Int, size: Int)?
        var leftover = 0

        init(_ bytes: [UInt8]) {
            var position = 0
            while bytes.count - position >= 4 {
                let length = bytes[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
                if length > Int(SyncLimits.maxFrameBytes) {
                    tooLarge = (position + 4, length)
                    return
                }
                guard bytes.count - position - 4 >= length else { break }
                frames.append(bytes[position + 4..<position + 4 + length])
                position += 4 + length
            }
            leftover = bytes.count - position
        }
    }

    func run(_ input: [UInt8]) throws(PropertyFailure) -> UInt64 {
        let expected = Expectation(input)
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        var frames: [ByteBuffer] = []
        var failure: (any Error)?
        var fed = 0
        var chunkStart = 0
        for chunk in StreamChunks.split(input) {
            chunkStart = fed
            fed += chunk.count
            do {
                try channel.writeInbound(ByteBuffer(bytes: chunk))
            } catch {
                failure = error
            }
            drain(channel, into: &frames)
            if failure != nil { break }
        }
        var atEnd = false
        if failure == nil {
            atEnd = true
            do { _ = try channel.finish() } catch { failure = error }
            drain(channel, into: &frames)
        } else {
            _ = try? channel.finish(acceptAlreadyClosed: true)
        }

        let got = frames.map { Array($0.readableBytesView) }
        let want = expected.frames.prefix(got.count).map(Array.init)
        try PropertyFailure.check(
            got.count <= expected.frames.count && got == want,
            "frames",
            "decoded \(got.map(\.count)) but the stream holds frames of \(expected.frames.map(\.count)) bytes"
        )

        var behaviour = Fingerprint()
        behaviour.mix(min(got.count, 8))
        if let tooLarge = expected.tooLarge {
            guard let error = failure as? FrameDecoder.FrameTooLarge else {
                throw PropertyFailure(
                    "too-large",
                    "a prefix announcing \(tooLarge.size) bytes gave \(describe(failure))"
                )
            }
            try PropertyFailure.check(
                error.size == tooLarge.size,
                "too-large",
                "reported \(error.size), announced \(tooLarge.size)"
            )
            try PropertyFailure.check(
                !atEnd && chunkStart < tooLarge.offset && tooLarge.offset <= fed,
                "too-large-early",
                "the prefix ended at byte \(tooLarge.offset), the error came with bytes \(chunkStart)..<\(fed)"
            )
            try PropertyFailure.check(
                got.count == expected.frames.count,
                "frames",
                "\(got.count) of the \(expected.frames.count) frames before the oversized one came out"
            )
            behaviour.mix("too large")
            return behaviour.value
        }
        try PropertyFailure.check(
            got.count == expected.frames.count,
            "frames",
            "\(got.count) of \(expected.frames.count) complete frames came out (error: \(describe(failure)))"
        )
        switch failure {
        case nil:
            // ByteToMessageHandler drops an incomplete tail on close; the session is over anyway.
            behaviour.mix(expected.leftover == 0 ? "clean" : "leftover dropped")
        case let error as ByteToMessageDecoderError:
            guard case .leftoverDataWhenDone(let rest) = error else {
                throw PropertyFailure("unexpected-error", "\(error)")
            }
            try PropertyFailure.check(
                rest.readableBytes == expected.leftover && expected.leftover > 0,
                "leftover",
                "\(rest.readableBytes) bytes reported left over, \(expected.leftover) expected"
            )
            behaviour.mix("leftover")
        default:
            throw PropertyFailure(
                "unexpected-error",
                "no frame is too large, yet decoding failed: \(describe(failure))"
            )
        }
        return behaviour.value
    }

    private func drain(_ channel: EmbeddedChannel, into frames: inout [ByteBuffer]) {
        while let frame = try? channel.readInbound(as: ByteBuffer.self) { frames.append(frame) }
    }

    private func describe(_ error: (any Error)?) -> String {
        error.map { "\(type(of: $0)): \($0)" } ?? "no error"
    }

    func seeds() throws -> [Seed] {
        func frame(_ payload: [UInt8]) -> [UInt8] {
            let count = UInt32(payload.count)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> $0) } + payload
        }
        func prefix(_ length: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } }
        let messages = Dictionary(
            uniqueKeysWithValues: try Samples.syncMessages().map { ($0.name, $0.message.encode()) }
        )
        let ping = messages["ping"]!
        let hello = messages["hello"]!
        let limit = SyncLimits.maxFrameBytes
        return [
            Seed("empty.bin", []),
            Seed("one-frame.bin", frame(Array("muster".utf8))),
            Seed("zero-length.bin", frame([])),
            Seed(
                "sync-messages.bin",
                frame(hello) + frame(ping) + frame(messages["pong"]!) + frame(messages["heads"]!)
            ),
            Seed("truncated-tail.bin", frame(ping) + Array(frame(hello).prefix(9))),
            Seed("partial-prefix.bin", [0, 0]),
            Seed("at-limit.bin", prefix(limit) + [1, 2, 3]),
            Seed("over-limit.bin", frame(ping) + prefix(limit + 1) + [1, 2, 3]),
            Seed("max-u32.bin", prefix(UInt32.max)),
            Seed("deltas-frame.bin", frame(messages["deltas"]!)),
        ]
    }
}
