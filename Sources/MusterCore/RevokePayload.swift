/// Takes a kiosk off the venue roster and rotates the venue network key. Organizer only.
///
/// `watermark` is the last seq of the kiosk that is still accepted: what it wrote up to there stays,
/// anything after is refused (and dropped by replicas that already had it). `watermarkHash` is the
/// BLAKE2b-256 of the kiosk's delta at the watermark, so the watermark is the same delta on every
/// replica: one that holds another version there (the kiosk forked) keeps only what precedes it.
/// It is nil only in revocations written before it existed, and when the watermark is 0. The new network key of
/// generation `keyGeneration` is sealed to each remaining kiosk, so the rotation travels with the
/// revocation and only enrolled kiosks can read it.
public struct RevokePayload: DeltaPayload {
    public static let kind = DeltaKind.revoke
    /// Most kiosks one revocation can carry a sealed key for (keeps the body under its limit).
    public static let maxSealedKeys = 120
    /// Length of the network key sealed to one kiosk (32-byte key + sealed-box overhead).
    public static let sealedKeyByteCount = 80

    /// The new network key sealed to one kiosk: its key, raw, then ``sealedKeyByteCount`` bytes.
    public struct SealedKey: ByteCodable, Sendable, Equatable {
        public var kiosk: AuthorID
        public var sealed: [UInt8]

        public init(kiosk: AuthorID, sealed: [UInt8]) {
            self.kiosk = kiosk
            self.sealed = sealed
        }

        public func encode(into writer: inout ByteWriter) {
            writer.write(kiosk)
            writer.writeRaw(sealed)
        }

        public init(from reader: inout ByteReader) throws(DecodeError) {
            let kiosk = try reader.read(AuthorID.self)
            self.init(kiosk: kiosk, sealed: try reader.readRaw(count: RevokePayload.sealedKeyByteCount))
        }
    }

    public var kiosk: AuthorID
    public var watermark: UInt64
    public var keyGeneration: UInt64
    public var sealedKeys: [SealedKey]
    public var watermarkHash: [UInt8]?

    public init(
        kiosk: AuthorID,
        watermark: UInt64,
        keyGeneration: UInt64,
        sealedKeys: [SealedKey],
        watermarkHash: [UInt8]? = nil
    ) {
        precondition(watermarkHash.map { $0.count == Delta.hashByteCount } ?? true, "a watermark hash has 32 bytes")
        self.kiosk = kiosk
        self.watermark = watermark
        self.keyGeneration = keyGeneration
        self.sealedKeys = sealedKeys
        self.watermarkHash = watermarkHash
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(kiosk, watermark, keyGeneration)
        writer.writeList(sealedKeys)
        if let watermarkHash { writer.writeRaw(watermarkHash) }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        self.init(
            kiosk: try reader.read(),
            watermark: try reader.read(),
            keyGeneration: try reader.read(),
            sealedKeys: try reader.readList(in: 0...Self.maxSealedKeys, "too many sealed keys"),
            watermarkHash: try reader.readTail(Delta.readHash(from:))
        )
    }
}
