/// A venue network key a revocation sealed to one kiosk (`network_key`), as the sync layer opens it.
public struct SealedNetworkKey: Sendable, Equatable {
    public let generation: UInt64
    /// The 32-byte key sealed to the kiosk (crypto_box_seal), ``MusterCore/RevokePayload/sealedKeyByteCount`` bytes.
    public let sealed: [UInt8]
    /// When the revocation that carries it was signed (its timestamp, Unix ms): the older keys'
    /// grace period runs from here.
    public let issuedAtMillis: UInt64

    public init(generation: UInt64, sealed: [UInt8], issuedAtMillis: UInt64) {
        self.generation = generation
        self.sealed = sealed
        self.issuedAtMillis = issuedAtMillis
    }
}
