import CSodium

/// Seals a key-file seed under a passphrase: Argon2id13 (`crypto_pwhash`)
/// turns the passphrase and a random salt into a 32-byte key, and
/// `crypto_secretbox_easy` (XSalsa20-Poly1305) encrypts and authenticates the
/// seed with it.
///
/// Argon2id makes each passphrase guess cost real memory and time, so a stolen
/// sealed file resists brute force; the Poly1305 tag lets a wrong passphrase
/// be told apart from a right one without any other oracle. The parameters
/// stored in the file are bounded on read, so a hostile file cannot make the
/// reader allocate unbounded memory.
enum PassphraseSeal {
    /// Name of the KDF as written in key files.
    static let kdfName = "argon2id13"

    static var saltByteCount: Int { crypto_pwhash_argon2id_saltbytes() }
    static var nonceByteCount: Int { crypto_secretbox_noncebytes() }
    static var keyByteCount: Int { crypto_secretbox_keybytes() }
    static var sealedByteCount: Int { SigningKeyPair.seedByteCount + crypto_secretbox_macbytes() }

    /// Cost used when writing: libsodium's INTERACTIVE preset (2 passes, 64 MiB).
    static var defaultOpslimit: UInt64 { UInt64(crypto_pwhash_argon2id_opslimit_interactive()) }
    static var defaultMemlimit: UInt64 { UInt64(crypto_pwhash_argon2id_memlimit_interactive()) }
    /// Costs accepted when reading: anything from libsodium's minimum up to its SENSITIVE preset.
    static var opslimitBounds: ClosedRange<UInt64> {
        UInt64(crypto_pwhash_argon2id_opslimit_min())...UInt64(crypto_pwhash_argon2id_opslimit_sensitive())
    }
    static var memlimitBounds: ClosedRange<UInt64> {
        UInt64(crypto_pwhash_argon2id_memlimit_min())...UInt64(crypto_pwhash_argon2id_memlimit_sensitive())
    }

    /// Derives the secretbox key from `passphrase`. The UTF-8 copy of the
    /// passphrase is zeroed before returning.
    static func deriveKey(
        passphrase: String,
        salt: [UInt8],
        opslimit: UInt64,
        memlimit: UInt64
    ) throws(MusterCryptoError) -> SecureBytes {
        guard salt.count == saltByteCount else {
            throw MusterCryptoError(
                .badLength,
                "The passphrase salt must be \(saltByteCount) bytes, got \(salt.count)."
            )
        }
        var utf8 = Array(passphrase.utf8)
        let length = utf8.count
        if utf8.isEmpty { utf8 = [0] }  // crypto_pwhash needs a non-null pointer even for length 0
        defer { ByteBuffers.zero(&utf8) }

        return try SecureBytes(count: keyByteCount) { key throws(MusterCryptoError) in
            guard let keyBase = key.baseAddress else { return }
            let status = utf8.withUnsafeBufferPointer { password in
                salt.withUnsafeBufferPointer { saltBuffer in
                    password.withMemoryRebound(to: CChar.self) { passwordChars in
                        crypto_pwhash(
                            keyBase.assumingMemoryBound(to: UInt8.self),
                            UInt64(key.count),
                            passwordChars.baseAddress!,
                            UInt64(length),
                            saltBuffer.baseAddress!,
                            opslimit,
                            Int(memlimit),
                            crypto_pwhash_alg_argon2id13()
                        )
                    }
                }
            }
            try Sodium.check(
                "crypto_pwhash",
                status,
                message: "Deriving a key from the passphrase (libsodium crypto_pwhash) failed; "
                    + "the system may not have \(memlimit / (1024 * 1024)) MiB of memory free."
            )
        }
    }

    /// Encrypts `seed` under `key` with a fresh random nonce.
    static func seal(
        _ seed: SecureBytes,
        key: SecureBytes
    ) throws(MusterCryptoError) -> (nonce: [UInt8], sealed: [UInt8]) {
        let nonce = SecureRandom.bytes(count: nonceByteCount)
        let (sealed, status) = seed.withBytePointer { message in
            SecretBox.seal(message, count: seed.count, nonce: nonce, key: key)
        }
        try Sodium.check("crypto_secretbox_easy", status)
        return (nonce, sealed)
    }

    /// Decrypts a sealed seed. A failed authentication tag means the
    /// passphrase was wrong (or the ciphertext was altered): `.wrongPassphrase`.
    static func open(
        _ sealed: [UInt8],
        nonce: [UInt8],
        key: SecureBytes,
        path: String
    ) throws(MusterCryptoError) -> SecureBytes {
        guard sealed.count == sealedByteCount, nonce.count == nonceByteCount, key.count == keyByteCount else {
            throw MusterCryptoError(.badKeyFile, "The sealed seed in the key file at \(path) has the wrong size.")
        }
        return try SecureBytes(count: SigningKeyPair.seedByteCount) { seed throws(MusterCryptoError) in
            guard let seedBase = seed.baseAddress else { return }
            let status = SecretBox.open(
                sealed,
                into: seedBase.assumingMemoryBound(to: UInt8.self),
                nonce: nonce,
                key: key
            )
            try Sodium.check(
                "crypto_secretbox_open_easy",
                status,
                code: .wrongPassphrase,
                message: "The passphrase for the key file at \(path) is wrong (or the file was altered). Try again."
            )
        }
    }
}
