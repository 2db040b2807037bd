import CSodium

/// Anonymous public-key encryption to a kiosk's signing key: libsodium's `crypto_box_seal` on the
/// X25519 keys derived from the Ed25519 ones.
///
/// This is how the organizer hands a kiosk the venue network key: in a join bundle, and to every
/// remaining kiosk when a revocation rotates the key. Only the holder of the kiosk's secret key can
/// open it, so the sealed bytes may travel over any channel (a file, a QR code, gossip).
public enum SealedBox {
    /// Bytes a sealed message is longer than its plaintext (`crypto_box_SEALBYTES`).
    public static let overhead = 48

    /// Seals `message` to the kiosk whose signing key is `recipient`.
    public static func seal(_ message: SecureBytes, to recipient: SigningPublicKey) throws(MusterCryptoError) -> [UInt8]
    {
        try Sodium.ensureInitialized()
        var curve = [UInt8](repeating: 0, count: 32)
        let converted = recipient.bytes.withUnsafeBufferPointer { pk in
            crypto_sign_ed25519_pk_to_curve25519(&curve, pk.baseAddress!)
        }
        try Sodium.check(
            "crypto_sign_ed25519_pk_to_curve25519",
            converted,
            code: .badLength,
            message: "The recipient key \(recipient.fingerprint) is not a valid Ed25519 public key."
        )
        var sealed = [UInt8](repeating: 0, count: message.count + overhead)
        let status = message.withBytePointer { plain in
            crypto_box_seal(&sealed, plain, UInt64(message.count), curve)
        }
        try Sodium.check("crypto_box_seal", status)
        return sealed
    }

    /// Opens a message sealed to `keyPair`'s public key; throws `.badSignature` when it was sealed to
    /// another key or altered.
    public static func open(_ sealed: [UInt8], with keyPair: SigningKeyPair) throws(MusterCryptoError) -> SecureBytes {
        guard sealed.count >= overhead else {
            throw MusterCryptoError(.badLength, "A sealed message is at least \(overhead) bytes, got \(sealed.count).")
        }
        var publicCurve = [UInt8](repeating: 0, count: 32)
        let converted = keyPair.publicKey.bytes.withUnsafeBufferPointer { pk in
            crypto_sign_ed25519_pk_to_curve25519(&publicCurve, pk.baseAddress!)
        }
        try Sodium.check("crypto_sign_ed25519_pk_to_curve25519", converted)
        let secretCurve = try SecureBytes(count: 32) { buffer throws(MusterCryptoError) in
            let status = keyPair.secretKey.withBytePointer { sk in
                crypto_sign_ed25519_sk_to_curve25519(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), sk)
            }
            try Sodium.check("crypto_sign_ed25519_sk_to_curve25519", status)
        }
        return try SecureBytes(count: sealed.count - overhead) { buffer throws(MusterCryptoError) in
            let status = secretCurve.withBytePointer { sk in
                crypto_box_seal_open(
                    buffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    sealed,
                    UInt64(sealed.count),
                    publicCurve,
                    sk
                )
            }
            try Sodium.check(
                "crypto_box_seal_open",
                status,
                code: .badSignature,
                message: "The sealed message was not sealed to this kiosk's key, or it was altered."
            )
        }
    }
}
