/// A delta as it travels and as it is stored: the exact envelope bytes and the author's Ed25519
/// signature over them.
///
/// "Sign bytes, store bytes": the envelope is kept exactly as received, and only decoded after
/// the signature verifies. The few header fields needed to find the key and order the log are read
/// from fixed offsets without decoding the body.
public struct SignedDelta: Sendable, Equatable {
    public static let signatureByteCount = 64
    /// Fixed offsets of the header fields inside the envelope.
    static let kindOffset = 1
    static let venueOffset = 2
    static let authorOffset = venueOffset + VenueID.byteCount
    static let seqOffset = authorOffset + AuthorID.byteCount
    static let prevOffset = seqOffset + 8
    static let hlcOffset = prevOffset + Delta.hashByteCount
    static let headerByteCount = hlcOffset + 8
    /// Where the author's key sits in the envelope (for comparing authors without copying them).
    public static let authorRange = authorOffset..<seqOffset
    /// Where the previous delta's hash sits in the envelope.
    public static let prevRange = prevOffset..<hlcOffset

    public let envelope: [UInt8]
    public let signature: [UInt8]

    /// Checks only the shape (lengths, version), so that the header accessors are safe to use.
    public init(envelope: [UInt8], signature: [UInt8]) throws(DecodeError) {
        guard envelope.count > Self.headerByteCount else { throw .truncated(at: envelope.count) }
        guard envelope.count <= Self.headerByteCount + 3 + Limits.maxBodyBytes else {
            throw .invalidValue(at: 0, "delta of \(envelope.count) bytes exceeds the size limit")
        }
        guard envelope[0] == Delta.encodingVersion else { throw .unsupportedVersion(envelope[0]) }
        // A kind this version does not know is a later version's: the envelope is carried (so a frame
        // that holds one does not end the session) and the store refuses it (``kind`` is nil).
        guard envelope[Self.kindOffset] != 0 else { throw .unknownKind(0) }
        guard signature.count == Self.signatureByteCount else {
            throw .invalidValue(at: 0, "signature must be \(Self.signatureByteCount) bytes")
        }
        self.envelope = envelope
        self.signature = signature
    }

    /// The delta's kind; nil for a later version's kind this one cannot read (``rawKind``).
    public var kind: DeltaKind? { DeltaKind(rawValue: envelope[Self.kindOffset]) }
    public var rawKind: UInt8 { envelope[Self.kindOffset] }
    /// The kind's name for people and logs, or "kind N" for a later version's.
    public var kindName: String { kind.map(\.description) ?? "kind \(rawKind)" }
    public var venue: VenueID { VenueID(bytes: envelope[Self.venueOffset..<Self.authorOffset])! }
    public var author: AuthorID { AuthorID(bytes: envelope[Self.authorOffset..<Self.seqOffset])! }
    public var seq: UInt64 {
        envelope[Self.seqOffset..<Self.prevOffset].reduce(0) { $0 << 8 | UInt64($1) }
    }
    public var prev: [UInt8] { Array(envelope[Self.prevOffset..<Self.hlcOffset]) }
    public var hlc: HLC {
        HLC(packed: envelope[Self.hlcOffset..<Self.headerByteCount].reduce(0) { $0 << 8 | UInt64($1) })
    }
    public var ref: DeltaRef { DeltaRef(author: author, seq: seq) }

    /// Decodes the full delta. Call only after the signature has been verified.
    public func decode() throws(DecodeError) -> Delta { try Delta.decode(envelope: envelope) }
}
