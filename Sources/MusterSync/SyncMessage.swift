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

    public static let maxHeads = 100_000
    public static let maxDeltas = 2_000

    enum Tag: UInt8 { case hello = 1, heads, deltas, ping, pong }

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
            writer.writeVarint(UInt64(deltas.count))
            for delta in deltas {
                writer.writeBlob(delta.envelope)
                writer.writeRaw(delta.signature)
            }
        case .ping: writer.write(Tag.ping.rawValue)
        case .pong: writer.write(Tag.pong.rawValue)
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
            let count = try reader.readVarint()
            guard count <= UInt64(maxDeltas) else { throw .invalidValue(at: 1, "too many deltas in one message") }
            var deltas: [SignedDelta] = []
            deltas.reserveCapacity(Int(count))
            for _ in 0..<count {
                let envelope = try reader.readBlob(maxLength: Limits.maxBodyBytes + 256)
                let signature = try reader.readRaw(count: SignedDelta.signatureByteCount)
                deltas.append(try SignedDelta(envelope: envelope, signature: signature))
            }
            message = .deltas(deltas)
        case .ping: message = .ping
        case .pong: message = .pong
        }
        try reader.expectEnd()
        return message
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
