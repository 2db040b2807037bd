/// One change in an author's append-only log, decoded.
///
/// The canonical *envelope* is what gets signed and hashed:
///
/// ```
/// version u8 (=1) | kind u8 | venue [16] | author [32] | seq u64 | prev [32] | hlc u64 | body (varint length + bytes)
/// ```
///
/// An enrollment (``EnrollPayload``) uses the same envelope as a certificate outside the log: seq 0,
/// `prev` all zeros. It is authenticated by its signature alone and never stored in a log.
///
/// `prev` is the BLAKE2b-256 of the author's previous envelope (all zeros for seq 1), so one verified
/// signature on the newest delta of a run authenticates the whole run.
public struct Delta: Sendable, Equatable {
    public static let encodingVersion: UInt8 = 1
    public static let hashByteCount = 32
    public static let genesisPrev = [UInt8](repeating: 0, count: hashByteCount)

    public let venue: VenueID
    public let author: AuthorID
    public let seq: UInt64
    public let prev: [UInt8]
    public let hlc: HLC
    public let body: DeltaBody

    public init(venue: VenueID, author: AuthorID, seq: UInt64, prev: [UInt8], hlc: HLC, body: DeltaBody) {
        precondition(prev.count == Self.hashByteCount, "prev must be a 32-byte hash")
        precondition(body.kind == .enroll ? seq == 0 : seq >= 1, "seq starts at 1; a certificate has seq 0")
        self.venue = venue
        self.author = author
        self.seq = seq
        self.prev = prev
        self.hlc = hlc
        self.body = body
    }

    /// Reads one BLAKE2b-256 hash, raw: an undo's target, a revocation's watermark.
    static func readHash(from reader: inout ByteReader) throws(DecodeError) -> [UInt8] {
        try reader.readRaw(count: hashByteCount)
    }

    public var kind: DeltaKind { body.kind }
    public var ref: DeltaRef { DeltaRef(author: author, seq: seq) }

    /// The canonical bytes to sign, store and hash.
    public func envelope() -> [UInt8] {
        let bodyBytes = body.encode()
        var writer = ByteWriter(capacity: 128 + bodyBytes.count)
        writer.write(Self.encodingVersion)
        writer.write(kind.rawValue)
        writer.writeRaw(venue.bytes)
        writer.writeRaw(author.bytes)
        writer.write(seq)
        writer.writeRaw(prev)
        writer.write(hlc.packed)
        writer.writeBlob(bodyBytes)
        return writer.bytes
    }

    /// Decodes an envelope. Callers verify the signature over these same bytes first.
    public static func decode(envelope: [UInt8]) throws(DecodeError) -> Delta {
        var reader = ByteReader(envelope)
        let version = try reader.readUInt8()
        guard version == encodingVersion else { throw .unsupportedVersion(version) }
        let rawKind = try reader.readUInt8()
        guard let kind = DeltaKind(rawValue: rawKind) else { throw .unknownKind(rawKind) }
        let venue = VenueID(bytes: try reader.readRaw(count: VenueID.byteCount))!
        let author = AuthorID(bytes: try reader.readRaw(count: AuthorID.byteCount))!
        let seqOffset = reader.offset
        let seq = try reader.readUInt64()
        // An enrollment is a certificate outside every log: seq 0. Log entries start at 1.
        if kind == .enroll {
            guard seq == 0 else { throw .invalidValue(at: seqOffset, "an enrollment certificate has seq 0") }
        } else {
            guard seq >= 1 else { throw .invalidValue(at: seqOffset, "seq must be at least 1") }
        }
        let prev = try reader.readRaw(count: hashByteCount)
        let hlcOffset = reader.offset
        let packedHLC = try reader.readUInt64()
        guard packedHLC >> 16 <= HLC.maxPhysicalMillis else {
            throw .invalidValue(at: hlcOffset, "timestamp beyond the year 6429")
        }
        let hlc = HLC(packed: packedHLC)
        let bodyBytes = try reader.readBlob(maxLength: Limits.maxBodyBytes)
        try reader.expectEnd()
        let body = try DeltaBody.decode(kind: kind, bytes: bodyBytes)
        return Delta(venue: venue, author: author, seq: seq, prev: prev, hlc: hlc, body: body)
    }
}
