/// Who wrote a delta: the author's 32-byte Ed25519 public key (a kiosk or the organizer).
///
/// Core keeps only the bytes; checking signatures is `MusterCrypto`'s job. Authors are ordered
/// bytewise so that ties between equal timestamps break the same way on every replica.
public struct AuthorID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public static let byteCount = 32
    public let bytes: [UInt8]

    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = Array(bytes)
    }

    public init?(hex: String) {
        guard let raw = Hex.decode(hex) else { return nil }
        self.init(bytes: raw)
    }

    public var hex: String { Hex.encode(bytes) }
    /// Short form for logs and screens; never used as an identity.
    public var short: String { String(hex.prefix(12)) }
    public var description: String { short }

    public static func < (lhs: AuthorID, rhs: AuthorID) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
