import Foundation
import MusterControl
import MusterDaemon
import NIOCore
import NIOEmbedded

/// The control socket's reader: `LineFrameDecoder` behind `ByteToMessageHandler` in an `EmbeddedChannel`
/// (the stream cut at arbitrary points), then each line through `JSONDecoder` into `ControlRequest`,
/// as `ControlServer` does.
///
/// Checked against a reference split of the same bytes: the lines before the first over-long one come
/// out exactly, a final line without a newline still counts, an over-long line (complete or still
/// arriving) fails with `LineTooLong` no later than the chunk that carries its first byte past the limit,
/// and no other error occurs. Every line decodes or is refused with an error; one that decodes
/// survives an encode/decode round trip unchanged.
///
/// Staff's limit (8 MiB) is out of reach of small inputs; the decoder runs here at the limit of every
/// other peer, ``ControlLimits/screenLineBytes`` (4 KiB), the one the public can reach.
final class ControlTarget: FuzzTarget {
    let name = "control"
    static let maxLineBytes = ControlLimits.screenLineBytes

    var dictionary: [[UInt8]] {
        [
            "\n", "{", "}", "[", "]", "\"", ":", ",", "null", "true", "1e999", "-0", "\\u0000", "\\ud800", "\"op\"",
            "\"checkin\"", "\"checkout\"", "\"register\"", "\"note\"", "\"head\"", "\"submit\"", "\"status\"",
            "\"ping\"",
            "\"query\"", "\"deltas\"", "\"envelope\"", "\"signature\"", "\"attendeeKey\"", "\"author\"",
        ].map { Array($0.utf8) }
    }

    /// The lines a correct decoder yields, and where the first over-long line makes it stop.
    private struct Expectation {
        var lines: [ArraySlice<UInt8>] = []
        /// Stream offset of the over-long line's first byte past the limit.
        var tooLongAt: Int?

        init(_ bytes: [UInt8], limit: Int) {
            var start = 0
            while start < bytes.count {
                let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
                let end = newline ?? bytes.count
                if end - start > limit {
                    tooLongAt = start + limit
                    return
                }
                lines.append(bytes[start..<end])
                start = end + 1
            }
        }
    }

    func run(_ input: [UInt8]) throws(PropertyFailure) -> UInt64 {
        let limit = Self.maxLineBytes
        let expected = Expectation(input, limit: limit)
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maxLineBytes: limit)))
        var lines: [ByteBuffer] = []
        var failure: (any Error)?
        var fed = 0
        for chunk in StreamChunks.split(input) {
            fed += chunk.count
            do { try channel.writeInbound(ByteBuffer(bytes: chunk)) } catch { failure = error }
            while let line = try? channel.readInbound(as: ByteBuffer.self) { lines.append(line) }
            if failure != nil { break }
            if let tooLongAt = expected.tooLongAt, fed > tooLongAt {
                throw PropertyFailure(
                    "too-long-early",
                    "\(fed) bytes buffered, the line passed the \(limit)-byte limit at byte \(tooLongAt), no error yet"
                )
            }
        }
        if failure == nil {
            do { _ = try channel.finish() } catch { failure = error }
            while let line = try? channel.readInbound(as: ByteBuffer.self) { lines.append(line) }
        } else {
            _ = try? channel.finish(acceptAlreadyClosed: true)
        }

        let got = lines.map { Array($0.readableBytesView) }
        try PropertyFailure.check(
            got == expected.lines.map(Array.init),
            "lines",
            "decoded lines of \(got.map(\.count)) bytes, expected \(expected.lines.map(\.count))"
        )
        var behaviour = Fingerprint()
        if expected.tooLongAt != nil {
            try PropertyFailure.check(
                failure is LineFrameDecoder.LineTooLong,
                "too-long",
                "an over-long line gave \(failure.map { "\($0)" } ?? "no error")"
            )
            behaviour.mix("too long")
        } else {
            try PropertyFailure.check(failure == nil, "unexpected-error", "\(failure.map { "\($0)" } ?? "")")
        }
        behaviour.mix(min(got.count, 4))
        for line in got { try checkRequest(line, &behaviour) }
        return behaviour.value
    }

    private func checkRequest(_ line: [UInt8], _ behaviour: inout Fingerprint) throws(PropertyFailure) {
        let request: ControlRequest
        do {
            request = try JSONDecoder().decode(ControlRequest.self, from: Data(line))
        } catch {
            // Refused: ControlServer answers any decoding error with one error response and closes.
            behaviour.mix(Mirror(reflecting: error).children.first?.label ?? "\(type(of: error))")
            return
        }
        behaviour.mix(request.operation.rawValue)
        if case .submit(let submission) = request {
            behaviour.mix(min(submission.deltas.count, 3))
        } else {
            behaviour.mix(-1)
        }
        do {
            let again = try JSONDecoder().decode(ControlRequest.self, from: try JSONEncoder().encode(request))
            try PropertyFailure.check(again == request, "round-trip", "encode/decode changed \(request)")
        } catch let error as PropertyFailure {
            throw error
        } catch {
            throw PropertyFailure("round-trip", "a decoded request does not survive encode/decode: \(error)")
        }
    }
}
