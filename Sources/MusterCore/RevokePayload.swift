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

    public struct SealedKey: Sendable, Equatable {
        public var kiosk: AuthorID
        public var sealed: [UInt8]

        public init(kiosk: AuthorID, sealed: [UInt8]) {
            self.kiosk = kiosk
            self.sealed = sealed
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
        writer.writeRaw(kiosk.bytes)
        writer.write(watermark)
        writer.write(keyGeneration)
        writer.writeVarint(UInt64(sealedKeys.count))
        for entry in sealedKeys {
            writer.writeRaw(entry.kiosk.bytes)
            writer.writeRaw(entry.sealed)
        }
        if let watermarkHash { writer.writeRaw(watermarkHash) }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let start = reader.offset
        guard let kiosk = AuthorID(bytes: try reader.readRaw(count: AuthorID.byteCount)) else {
            throw .invalidValue(at: start, "bad kiosk key")
        }
        self.kiosk = kiosk
        watermark = try reader.readUInt64()
        keyGeneration = try reader.readUInt64()
        let countOffset = reader.offset
        let count = try reader.readVarint()
        guard count <= UInt64(Self.maxSealedKeys) else {
            throw .invalidValue(at: countOffset, "too many sealed keys")
        }
        var keys: [SealedKey] = []
        for _ in 0..<count {
            let offset = reader.offset
            guard let recipient = AuthorID(bytes: try reader.readRaw(count: AuthorID.byteCount)) else {
                throw .invalidValue(at: offset, "bad kiosk key")
            }
            keys.append(SealedKey(kiosk: recipient, sealed: try reader.readRaw(count: Self.sealedKeyByteCount)))
        }
        sealedKeys = keys
        watermarkHash = reader.isAtEnd ? nil : try reader.readRaw(count: Delta.hashByteCount)
    }
}
