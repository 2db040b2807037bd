import MusterCore
import MusterSync

/// The decoders behind every byte a peer or the organizer's `muster` hands over: `SignedDelta`'s shape
/// check, `Delta.decode` (via `SignedDelta.decode()`) and `SyncMessage.decode`.
///
/// The first byte picks the decoder (even: a signed delta, the last 64 bytes being the signature;
/// odd: a sync message). Decoding may only fail with `DecodeError` (the typed throws guarantee that;
/// the point is that it never traps). When it succeeds: the header fields read from fixed offsets
/// agree with the full decode; re-encoding gives back exactly the input bytes (the envelope is what is
/// signed and hashed, so it must have one form); and decoding the re-encoding gives an equal value. Deltas
/// carried in a sync message (`deltas`, `roster`, `credentials`, `revoked`) are checked the same way.
final class DeltaTarget: FuzzTarget {
    let name = "delta"

    var dictionary: [[UInt8]] {
        var tokens: [[UInt8]] = [
            [Delta.encodingVersion], [0x80, 0x01], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
        ]
        tokens += (0...12).map { [UInt8($0)] }  // kinds and sync tags, including a few that do not exist yet
        tokens.append([UInt8](repeating: 0, count: 32))
        tokens.append([0, 0, 0, 0, 0, 0, 0, 1])  // seq 1
        tokens.append(Array("devconf-2026".utf8))
        return tokens
    }

    func run(_ input: [UInt8]) throws(PropertyFailure) -> UInt64 {
        guard let selector = input.first else { return 0 }
        let rest = Array(input.dropFirst())
        var behaviour = Fingerprint()
        if selector & 1 == 0 {
            behaviour.mix("signed")
            let split = max(0, rest.count - 64)
            try checkSignedDelta(envelope: Array(rest[..<split]), signature: Array(rest[split...]), &behaviour)
        } else {
            behaviour.mix("sync")
            try checkSyncMessage(rest, &behaviour)
        }
        return behaviour.value
    }

    private func checkSignedDelta(
        envelope: [UInt8],
        signature: [UInt8],
        _ behaviour: inout Fingerprint
    ) throws(PropertyFailure) {
        let signed: SignedDelta
        do {
            signed = try SignedDelta(envelope: envelope, signature: signature)
        } catch {
            return behaviour.mix("shape \(Self.caseName(error))")
        }
        behaviour.mix(Int(signed.rawKind))
        try checkDecode(signed, &behaviour)
    }

    /// Header accessors, then the full decode and its round trip.
    private func checkDecode(_ signed: SignedDelta, _ behaviour: inout Fingerprint) throws(PropertyFailure) {
        let header = (signed.kind, signed.venue, signed.author, signed.seq, signed.prev, signed.hlc, signed.ref)
        let delta: Delta
        do {
            delta = try signed.decode()
        } catch {
            return behaviour.mix("decode \(Self.caseName(error))")
        }
        behaviour.mix("decoded")
        try PropertyFailure.check(
            delta.kind == header.0 && delta.venue == header.1 && delta.author == header.2 && delta.seq == header.3
                && delta.prev == header.4 && delta.hlc == header.5 && delta.ref == header.6,
            "header",
            "fixed-offset header \(header) disagrees with the decoded delta \(delta)"
        )
        let again = delta.envelope()
        try PropertyFailure.check(
            again == signed.envelope,
            "canonical",
            "re-encoding a decoded \(delta.kind) gives other bytes (\(again.count), not \(signed.envelope.count))"
        )
        try redecoding("the re-encoded \(delta.kind)") {
            let redecoded = try SignedDelta(envelope: again, signature: signed.signature).decode()
            try PropertyFailure.check(redecoded == delta, "round-trip", "decode(encode(d)) != d for \(delta)")
        }
    }

    /// Decodes re-encoded bytes again in `body`: a decoding error there breaks the round trip of `what`.
    private func redecoding(_ what: String, _ body: () throws -> Void) throws(PropertyFailure) {
        do {
            try body()
        } catch let error as DecodeError {
            throw PropertyFailure("round-trip", "\(what) does not decode: \(error)")
        } catch let error as PropertyFailure {
            throw error
        } catch {
            throw PropertyFailure("untyped-error", "\(error)")
        }
    }

    private func checkSyncMessage(_ bytes: [UInt8], _ behaviour: inout Fingerprint) throws(PropertyFailure) {
        let message: SyncMessage
        do {
            message = try SyncMessage.decode(bytes)
        } catch {
            return behaviour.mix("sync \(Self.caseName(error))")
        }
        behaviour.mix(bytes.first.map(Int.init) ?? -1)
        let again = message.encode()
        try PropertyFailure.check(
            again == bytes,
            "canonical",
            "re-encoding a decoded sync message (tag \(bytes.first ?? 0)) gives different bytes"
        )
        try redecoding("a re-encoded sync message") {
            let redecoded = try SyncMessage.decode(again)
            try PropertyFailure.check(redecoded == message, "round-trip", "decode(encode(m)) != m for \(message)")
        }
        let carried: [SignedDelta]
        switch message {
        case .deltas(let deltas), .roster(let deltas): carried = deltas
        case .credentials(let delta), .revoked(let delta): carried = [delta]
        default: carried = []
        }
        behaviour.mix(min(carried.count, 4))
        for delta in carried { try checkDecode(delta, &behaviour) }
    }

    /// The error's case without its payload (offsets vary with every input), so each distinct way of
    /// failing counts once as behaviour. Read through reflection so new `DecodeError` cases need no change here.
    private static func caseName(_ error: DecodeError) -> String {
        Mirror(reflecting: error).children.first?.label ?? "\(error)"
    }

    func seeds() throws -> [Seed] {
        var seeds: [Seed] = []
        for (index, delta) in try Samples.signedDeltas().enumerated() {
            seeds.append(Seed("delta-\(index + 1)-\(delta.kindName).bin", [0] + delta.envelope + delta.signature))
        }
        for (name, message) in try Samples.syncMessages() {
            seeds.append(Seed("sync-\(name).bin", [1] + message.encode()))
        }
        return seeds
    }
}
