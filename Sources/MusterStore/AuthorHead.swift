public import MusterCore

/// The newest delta of one author that a replica holds: its seq and the hash the next delta must name.
public struct AuthorHead: Sendable, Equatable {
    public let author: AuthorID
    public let seq: UInt64
    public let hash: [UInt8]

    public init(author: AuthorID, seq: UInt64, hash: [UInt8]) {
        self.author = author
        self.seq = seq
        self.hash = hash
    }

    /// The head of an author the replica has never seen.
    public static func empty(_ author: AuthorID) -> AuthorHead {
        AuthorHead(author: author, seq: 0, hash: Delta.genesisPrev)
    }
}

/// The author's key, raw, then the seq and the hash: how `hello` and `heads` announce what a kiosk holds.
extension AuthorHead: ByteCodable {
    public func encode(into writer: inout ByteWriter) {
        writer.write(author, seq)
        writer.writeRaw(hash)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let author: AuthorID = try reader.read()
        let seq: UInt64 = try reader.read()
        self.init(author: author, seq: seq, hash: try reader.readRaw(count: Delta.hashByteCount))
    }
}
