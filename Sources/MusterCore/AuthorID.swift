/// Who wrote a delta: the author's 32-byte Ed25519 public key (a kiosk or the organizer).
///
/// Core keeps only the bytes; checking signatures is `MusterCrypto`'s job. Authors are ordered
/// bytewise so that ties between equal timestamps break the same way on every replica.
///
/// The key is held as four big-endian words rather than an array: the sync core keys every
/// per-author and per-peer table by author, and an array meant a heap object to retain, release and
/// hash a byte at a time on every lookup (over half of the simulator's time at 50 kiosks).
public struct AuthorID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public static let byteCount = 32
    private let word0: UInt64
    private let word1: UInt64
    private let word2: UInt64
    private let word3: UInt64

    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        // Four loads where the bytes are contiguous (an envelope's slice, an array): authors are made
        // from envelopes on every delta handled, and the byte loop below was 6 % of a 50-kiosk simulation.
        if let words = bytes.withContiguousStorageIfAvailable({ buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            return (
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            )
        }) {
            (word0, word1, word2, word3) = words
            return
        }
        // No temporary array otherwise either.
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for (index, byte) in bytes.enumerated() {
            switch index >> 3 {
            case 0: words.0 = words.0 << 8 | UInt64(byte)
            case 1: words.1 = words.1 << 8 | UInt64(byte)
            case 2: words.2 = words.2 << 8 | UInt64(byte)
            default: words.3 = words.3 << 8 | UInt64(byte)
            }
        }
        (word0, word1, word2, word3) = words
    }

    public init?(hex: String) {
        guard let raw = Hex.decode(hex) else { return nil }
        self.init(bytes: raw)
    }

    /// The 32 key bytes, in order.
    public var bytes: [UInt8] {
        // Four stores into the new array: the byte loop over a temporary array of the words was 3 %
        // of a 50-kiosk simulation (every signature check and event written asks for the bytes).
        [UInt8](unsafeUninitializedCapacity: Self.byteCount) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.storeBytes(of: word0.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: word1.bigEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: word2.bigEndian, toByteOffset: 16, as: UInt64.self)
            raw.storeBytes(of: word3.bigEndian, toByteOffset: 24, as: UInt64.self)
            count = Self.byteCount
        }
    }

    /// The first eight bytes as a big-endian number: what a short form or a log needs, without the
    /// array.
    public var leadingWord: UInt64 { word0 }

    public var hex: String { Hex.encode(bytes) }
    /// Short form for logs and screens; never used as an identity.
    public var short: String { String(hex.prefix(12)) }
    public var description: String { short }

    /// Bytewise order: the words are big-endian, so comparing them in turn is comparing the bytes.
    public static func < (lhs: AuthorID, rhs: AuthorID) -> Bool {
        (lhs.word0, lhs.word1, lhs.word2, lhs.word3) < (rhs.word0, rhs.word1, rhs.word2, rhs.word3)
    }
}
