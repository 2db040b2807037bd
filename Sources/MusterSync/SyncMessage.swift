public import MusterCore
public import MusterStore

/// What two kiosks say to each other inside an established, encrypted session.
///
/// Encoded with Core's canonical ``ByteWriter`` format; every decode is bounded so a hostile peer can
/// make a session fail but never the daemon.
public enum SyncMessage: Sendable, Equatable {
    /// First message of a session: the replica's epoch (a random id made when the replica was
    /// created, so a wiped and recreated kiosk is recognized) and what this side holds.
    case hello(epoch: String, heads: [AuthorHead])
    /// Periodic anti-entropy: what this side holds now.
    case heads([AuthorHead])
    /// Consecutive deltas, grouped by author, each author's run in seq order.
    case deltas([SignedDelta])
    case ping
    case pong
    /// The very first message each side sends: its enrollment certificate (see ``EnrollPayload``).
    /// A session goes no further until the peer's certificate checks out against the roster.
    case credentials(SignedDelta)
    /// Enrollment certificates this side knows, so a peer learns new kiosks before their deltas.
    case roster([SignedDelta])
    /// Sent to a revoked kiosk instead of a session: the organizer's signed revocation naming it.
    case revoked(SignedDelta)
    /// The sender's state digest, sent with its heads, so `muster status` can say whether two
    /// kiosks agree.
    case digest(String)
    /// The kiosks the sender is in session with now, sent whenever that changes. A kiosk does not
    /// relay what it heard from one of them to the sender: that kiosk pushes its news to every
    /// session itself, so on a full mesh nothing is relayed and every delta crosses each link once.
    case sessions([AuthorID])
    /// Repair by pull: send me these ranges. A lagging kiosk asks one peer per author range, so no two
    /// peers send it the same deltas (tag 11).
    case want([SeqRange])
    /// Plumtree's GRAFT: send me these ranges, and push new deltas to me eagerly from now on (tag 12).
    case graft([SeqRange])
    /// Plumtree's PRUNE: a copy arrived by eager push; announce new deltas to me lazily instead (tag 13).
    case prune
    /// Plumtree's IHAVE: lazy announcement of deltas the sender holds (tag 14).
    case ihave([SeqRange])
    /// The only thing said in a session under a retired network key (``NetworkKeyRing``): the signed
    /// revocations that sealed the newer keys to the peer, so it can open them and dial again (tag 15).
    case rekey([SignedDelta])

    public static let maxHeads = 100_000
    public static let maxDeltas = 2_000
    public static let maxCertificates = 1_000
    public static let maxSessions = 1_000
    public static let maxRanges = 10_000

    enum Tag: UInt8 {
        case hello = 1, heads, deltas, ping, pong, credentials, roster, revoked, digest, sessions
        case want, graft, prune, ihave, rekey
    }

    public func encode() -> [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .hello(let epoch, let heads):
            writer.write(Tag.hello.rawValue)
            writer.write(epoch)
            Self.encode(heads, into: &writer)
        case .heads(let heads):
            writer.write(Tag.heads.rawValue)
            Self.encode(heads, into: &writer)
        case .deltas(let deltas):
            writer.write(Tag.deltas.rawValue)
            Self.encode(deltas, into: &writer)
        case .ping: writer.write(Tag.ping.rawValue)
        case .pong: writer.write(Tag.pong.rawValue)
        case .credentials(let certificate):
            writer.write(Tag.credentials.rawValue)
            Self.encode(certificate, into: &writer)
        case .roster(let certificates):
            writer.write(Tag.roster.rawValue)
            Self.encode(certificates, into: &writer)
        case .revoked(let evidence):
            writer.write(Tag.revoked.rawValue)
            Self.encode(evidence, into: &writer)
        case .digest(let digest):
            writer.write(Tag.digest.rawValue)
            writer.write(digest)
        case .sessions(let peers):
            writer.write(Tag.sessions.rawValue)
            writer.writeVarint(UInt64(peers.count))
            for peer in peers { writer.writeRaw(peer.bytes) }
        case .want(let ranges):
            writer.write(Tag.want.rawValue)
            Self.encode(ranges, into: &writer)
        case .graft(let ranges):
            writer.write(Tag.graft.rawValue)
            Self.encode(ranges, into: &writer)
        case .prune: writer.write(Tag.prune.rawValue)
        case .ihave(let ranges):
            writer.write(Tag.ihave.rawValue)
            Self.encode(ranges, into: &writer)
        case .rekey(let revocations):
            writer.write(Tag.rekey.rawValue)
            Self.encode(revocations, into: &writer)
        }
        return writer.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> SyncMessage {
        var reader = ByteReader(bytes)
        let rawTag = try reader.readUInt8()
        guard let tag = Tag(rawValue: rawTag) else { throw .invalidValue(at: 0, "unknown sync message \(rawTag)") }
        let message: SyncMessage
        switch tag {
        case .hello:
            let epoch = try reader.readString(maxLength: 64)
            message = .hello(epoch: epoch, heads: try decodeHeads(&reader))
        case .heads:
            message = .heads(try decodeHeads(&reader))
        case .deltas:
            message = .deltas(try decodeDeltas(&reader, max: maxDeltas, "too many deltas in one message"))
        case .ping: message = .ping
        case .pong: message = .pong
        case .credentials: message = .credentials(try decodeDelta(&reader))
        case .roster:
            message = .roster(try decodeDeltas(&reader, max: maxCertificates, "too many certificates"))
        case .revoked: message = .revoked(try decodeDelta(&reader))
        case .digest: message = .digest(try reader.readString(maxLength: 128))
        case .sessions:
            let count = try reader.readVarint()
            guard count <= UInt64(maxSessions) else { throw .invalidValue(at: 1, "too many sessions") }
            var peers: [AuthorID] = []
            for _ in 0..<count { peers.append(AuthorID(bytes: try reader.readRaw(count: AuthorID.byteCount))!) }
            message = .sessions(peers)
        case .want: message = .want(try decodeRanges(&reader))
        case .graft: message = .graft(try decodeRanges(&reader))
        case .prune: message = .prune
        case .ihave: message = .ihave(try decodeRanges(&reader))
        case .rekey: message = .rekey(try decodeDeltas(&reader, max: maxCertificates, "too many revocations"))
        }
        try reader.expectEnd()
        return message
    }

    private static func encode(_ delta: SignedDelta, into writer: inout ByteWriter) {
        writer.writeBlob(delta.envelope)
        writer.writeRaw(delta.signature)
    }

    private static func decodeDelta(_ reader: inout ByteReader) throws(DecodeError) -> SignedDelta {
        let envelope = try reader.readBlob(maxLength: Limits.maxBodyBytes + 256)
        let signature = try reader.readRaw(count: SignedDelta.signatureByteCount)
        return try SignedDelta(envelope: envelope, signature: signature)
    }

    private static func encode(_ deltas: [SignedDelta], into writer: inout ByteWriter) {
        writer.writeVarint(UInt64(deltas.count))
        for delta in deltas { encode(delta, into: &writer) }
    }

    private static func decodeDeltas(
        _ reader: inout ByteReader,
        max: Int,
        _ tooMany: String
    ) throws(DecodeError) -> [SignedDelta] {
        let count = try reader.readVarint()
        guard count <= UInt64(max) else { throw .invalidValue(at: 1, tooMany) }
        var deltas: [SignedDelta] = []
        deltas.reserveCapacity(Int(count))
        for _ in 0..<count { deltas.append(try decodeDelta(&reader)) }
        return deltas
    }

    private static func encode(_ ranges: [SeqRange], into writer: inout ByteWriter) {
        writer.writeVarint(UInt64(ranges.count))
        for range in ranges {
            writer.writeRaw(range.author.bytes)
            writer.write(range.after)
            writer.write(range.through)
        }
    }

    private static func decodeRanges(_ reader: inout ByteReader) throws(DecodeError) -> [SeqRange] {
        let count = try reader.readVarint()
        guard count <= UInt64(maxRanges) else { throw .invalidValue(at: reader.offset, "too many ranges") }
        var ranges: [SeqRange] = []
        for _ in 0..<count {
            let author = AuthorID(bytes: try reader.readRaw(count: AuthorID.byteCount))!
            let after = try reader.readUInt64()
            let through = try reader.readUInt64()
            guard through >= after else { throw .invalidValue(at: reader.offset, "range ends before it starts") }
            ranges.append(SeqRange(author: author, after: after, through: through))
        }
        return ranges
    }

    private static func encode(_ heads: [AuthorHead], into writer: inout ByteWriter) {
        writer.writeVarint(UInt64(heads.count))
        for head in heads {
            writer.writeRaw(head.author.bytes)
            writer.write(head.seq)
            writer.writeRaw(head.hash)
        }
    }

    private static func decodeHeads(_ reader: inout ByteReader) throws(DecodeError) -> [AuthorHead] {
        let count = try reader.readVarint()
        guard count <= UInt64(maxHeads) else { throw .invalidValue(at: reader.offset, "too many heads") }
        var heads: [AuthorHead] = []
        for _ in 0..<count {
            let author = AuthorID(bytes: try reader.readRaw(count: AuthorID.byteCount))!
            let seq = try reader.readUInt64()
            let hash = try reader.readRaw(count: Delta.hashByteCount)
            heads.append(AuthorHead(author: author, seq: seq, hash: hash))
        }
        return heads
    }
}
