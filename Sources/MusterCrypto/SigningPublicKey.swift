import CSodium
import MusterCore

/// Ed25519 public key, 32 bytes.
///
/// Public keys are not secret; they identify the organizer or a kiosk and are
/// shown to people as a short `fingerprint` so two screens can be compared by eye.
public struct SigningPublicKey: Hashable, Sendable, CustomStringConvertible {
    /// Length of an Ed25519 public key in bytes.
    public static let byteCount = 32

    /// The raw key, always exactly 32 bytes.
    public let bytes: [UInt8]

    /// Wraps raw key bytes; throws `.badLength` unless there are exactly 32.
    public init(bytes: some Collection<UInt8>) throws(MusterCryptoError) {
        guard bytes.count == Self.byteCount else {
            throw MusterCryptoError(
                .badLength,
                "An Ed25519 public key must be \(Self.byteCount) bytes, got \(bytes.count)."
            )
        }
        self.bytes = Array(bytes)
    }

    /// Parses 64 hex characters (either case).
    public init(hex: String) throws(MusterCryptoError) {
        let trimmed = Self.trimmingWhitespace(hex)
        guard trimmed.utf8.count == Self.byteCount * 2 else {
            throw MusterCryptoError(
                .badLength,
                "An Ed25519 public key must be \(Self.byteCount * 2) hex characters, got \(trimmed.utf8.count)."
            )
        }
        guard let decoded = Hex.decode(trimmed) else {
            throw MusterCryptoError(.badLength, "The public key is not valid hex (expected characters 0-9 and a-f).")
        }
        try self.init(bytes: decoded)
    }

    /// Lowercase hex of the key.
    public var hex: String { Hex.encode(bytes) }

    /// First 8 bytes of BLAKE2b-256(key) as four dash-separated groups of four
    /// lowercase hex digits, e.g. `3f2a-91c0-5b7e-0d14`. Short enough to read
    /// aloud, long enough that an accidental match is implausible.
    public var fingerprint: String {
        let digest = Blake2b.hash256(bytes)
        let groups = stride(from: 0, to: 8, by: 2).map { Hex.encode(digest[$0..<$0 + 2]) }
        return groups.joined(separator: "-")
    }

    /// The full lowercase hex key (public, safe to log).
    public var description: String { hex }

    /// Verifies a detached Ed25519 signature (`crypto_sign_verify_detached`).
    /// Returns false for a signature of the wrong length rather than throwing,
    /// since a malformed signature is just another invalid one.
    public func isValidSignature(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>) -> Bool {
        guard signature.count == SigningKeyPair.signatureByteCount else { return false }
        guard (try? Sodium.ensureInitialized()) != nil else { return false }
        let signatureBytes = Array(signature)
        let status = ByteBuffers.withContiguous(message) { messageBuffer in
            signatureBytes.withUnsafeBufferPointer { sig in
                bytes.withUnsafeBufferPointer { key in
                    crypto_sign_verify_detached(
                        sig.baseAddress!,
                        messageBuffer.baseAddress,
                        UInt64(messageBuffer.count),
                        key.baseAddress!
                    )
                }
            }
        }
        return (try? Sodium.check("crypto_sign_verify_detached", status, code: .badSignature)) != nil
    }

    /// Pasted keys often carry a stray newline or space; ignore it.
    private static func trimmingWhitespace(_ text: String) -> Substring {
        guard let start = text.firstIndex(where: { !$0.isWhitespace }),
            let end = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return text[start...end]
    }
}
