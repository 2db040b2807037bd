import CSodium

/// Ed25519 key pair; the secret key lives in `SecureBytes`.
///
/// The organizer's key signs rosters and audit-chain heads; a kiosk's key
/// signs its check-ins. Only the 32-byte seed is ever stored (see `KeyFile`);
/// the 64-byte libsodium secret key is re-derived from it on load, which also
/// lets a loaded file be checked against its stated public key.
///
/// `Sendable` holds without `@unchecked`: all stored properties are `let` and
/// themselves `Sendable`.
public final class SigningKeyPair: Sendable {
    /// Length of an Ed25519 seed in bytes.
    public static let seedByteCount = 32
    /// Length of a detached Ed25519 signature in bytes.
    public static let signatureByteCount = 64
    /// Length of libsodium's expanded secret key (seed followed by public key).
    static let secretKeyByteCount = 64

    /// The public half, safe to publish.
    public let publicKey: SigningPublicKey
    /// The 32-byte seed the key pair was derived from; what key files store.
    public let seed: SecureBytes
    /// libsodium's 64-byte secret key, used for signing.
    let secretKey: SecureBytes

    /// A fresh key pair from a random seed.
    public static func generate() throws(MusterCryptoError) -> SigningKeyPair {
        try SigningKeyPair(seed: SecureBytes.random(count: seedByteCount))
    }

    /// Derives the key pair from a 32-byte seed (`crypto_sign_seed_keypair`).
    public init(seed: SecureBytes) throws(MusterCryptoError) {
        guard seed.count == Self.seedByteCount else {
            throw MusterCryptoError(
                .badLength,
                "An Ed25519 seed must be \(Self.seedByteCount) bytes, got \(seed.count)."
            )
        }
        var publicBytes = [UInt8](repeating: 0, count: SigningPublicKey.byteCount)
        let secretKey = try SecureBytes(count: Self.secretKeyByteCount) { secret throws(MusterCryptoError) in
            guard let secretBase = secret.baseAddress else { return }
            let status = publicBytes.withUnsafeMutableBufferPointer { pk in
                seed.withBytePointer { seedPointer in
                    crypto_sign_seed_keypair(
                        pk.baseAddress!,
                        secretBase.assumingMemoryBound(to: UInt8.self),
                        seedPointer
                    )
                }
            }
            try Sodium.check("crypto_sign_seed_keypair", status)
        }
        self.publicKey = try SigningPublicKey(bytes: publicBytes)
        self.seed = seed
        self.secretKey = secretKey
    }

    /// A 64-byte detached Ed25519 signature over `message` (`crypto_sign_detached`).
    public func sign(_ message: some Collection<UInt8>) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: Self.signatureByteCount)
        var signatureLength: UInt64 = 0
        let status = ByteBuffers.withContiguous(message) { messageBuffer in
            signature.withUnsafeMutableBufferPointer { sig in
                secretKey.withBytePointer { sk in
                    crypto_sign_detached(
                        sig.baseAddress!,
                        &signatureLength,
                        messageBuffer.baseAddress,
                        UInt64(messageBuffer.count),
                        sk
                    )
                }
            }
        }
        // Ed25519 signing has no failure mode for a well-formed key, which init guarantees.
        Sodium.mustSucceed("crypto_sign_detached", status)
        return signature
    }
}

extension SigningKeyPair: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Names the public key only; the secret half is never printed.
    public var description: String { "SigningKeyPair(public: \(publicKey.fingerprint), secret redacted)" }
    /// Same as `description`.
    public var debugDescription: String { description }
    /// Keeps `dump()` from descending into the secret buffers.
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey, "secret": "redacted"]) }
}
