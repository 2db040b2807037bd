import CSodium
import MusterCore

/// The organizer's (or a kiosk's) signing key on disk.
///
/// The file is a small versioned text format (`format = "muster-key-v1"`)
/// holding the public key and either the plain 32-byte seed or the seed sealed
/// with a passphrase (Argon2id13 + `crypto_secretbox_easy`, see
/// `PassphraseSeal`). It is written atomically with mode 0600 and refused on
/// read if group or others can access it. On read the seed must reproduce the
/// stated public key, which catches damaged or hand-edited files before they
/// sign anything. Secrets are handled only in `SecureBytes`, and no error
/// message ever quotes file contents.
///
/// Plain file:
/// ```
/// # Muster signing key. Keep this file secret.
/// format = "muster-key-v1"
/// public = "<64 hex>"
/// seed = "<64 hex>"
/// ```
/// Sealed file: `seed` is replaced by `kdf = "argon2id13"`, `salt`,
/// `opslimit`, `memlimit`, `nonce` and `sealed_seed`.
public enum KeyFile {
    /// Format identifier written to and required in every key file.
    public static let formatVersion = "muster-key-v1"

    private static let sealedFieldNames = ["kdf", "salt", "opslimit", "memlimit", "nonce", "sealed_seed"]

    /// How the seed is stored in a parsed file.
    private enum Protection {
        case plain
        case sealed(salt: [UInt8], opslimit: UInt64, memlimit: UInt64, nonce: [UInt8], sealedSeed: [UInt8])
    }

    // MARK: Public API

    /// Writes `keyPair` to `path` with mode 0600, sealed under `passphrase`
    /// when one is given. An existing file is replaced only if `overwrite` is
    /// true, so a key is never clobbered by accident. An empty passphrase is
    /// rejected (`.badLength`): pass nil to write an unsealed file.
    public static func write(
        _ keyPair: SigningKeyPair,
        to path: String,
        passphrase: String?,
        overwrite: Bool = false
    ) throws(MusterCryptoError) {
        let publicLine = "public = \"\(keyPair.publicKey.hex)\"\n"
        let contents: SecureBytes
        if let passphrase {
            guard !passphrase.isEmpty else {
                throw MusterCryptoError(
                    .badLength,
                    "The passphrase is empty. Choose a passphrase, or write the key file unsealed."
                )
            }
            let salt = SecureRandom.bytes(count: PassphraseSeal.saltByteCount)
            let opslimit = PassphraseSeal.defaultOpslimit
            let memlimit = PassphraseSeal.defaultMemlimit
            let key = try PassphraseSeal.deriveKey(
                passphrase: passphrase,
                salt: salt,
                opslimit: opslimit,
                memlimit: memlimit
            )
            let (nonce, sealed) = try PassphraseSeal.seal(keyPair.seed, key: key)
            let text =
                "# Muster signing key, sealed with a passphrase. Keep this file secret.\n"
                + "format = \"\(formatVersion)\"\n"
                + publicLine
                + "kdf = \"\(PassphraseSeal.kdfName)\"\n"
                + "salt = \"\(Hex.encode(salt))\"\n"
                + "opslimit = \(opslimit)\n"
                + "memlimit = \(memlimit)\n"
                + "nonce = \"\(Hex.encode(nonce))\"\n"
                + "sealed_seed = \"\(Hex.encode(sealed))\"\n"
            contents = try SecureBytes(copying: text.utf8)
        } else {
            let prefix = Array(
                ("# Muster signing key. Keep this file secret.\n"
                    + "format = \"\(formatVersion)\"\n"
                    + publicLine
                    + "seed = \"").utf8
            )
            contents = try renderWithSecretHex(prefix: prefix, secret: keyPair.seed, suffix: Array("\"\n".utf8))
        }
        try contents.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws(MusterCryptoError) in
            try SecretFile.store(raw, at: path, overwrite: overwrite)
        }
    }

    /// Loads the key pair at `path`. `passphrase` is called only if the file is
    /// sealed; returning nil gives `.passphraseRequired`, a wrong one
    /// `.wrongPassphrase`. Errors thrown by the closure are passed through if
    /// they are `MusterCryptoError`, otherwise reported as `.passphraseRequired`.
    public static func read(
        from path: String,
        passphrase: () throws -> String?
    ) throws(MusterCryptoError) -> SigningKeyPair {
        let document = try loadDocument(path)
        let stated = try SigningPublicKey(bytes: document.hexBytes("public", count: SigningPublicKey.byteCount))

        let seed: SecureBytes
        switch try protection(of: document) {
        case .plain:
            seed = try document.secretHex("seed", count: SigningKeyPair.seedByteCount)
        case let .sealed(salt, opslimit, memlimit, nonce, sealedSeed):
            let supplied: String?
            do {
                supplied = try passphrase()
            } catch let error as MusterCryptoError {
                throw error
            } catch {
                throw MusterCryptoError(
                    .passphraseRequired,
                    "Could not get the passphrase for the key file at \(path): \(error)"
                )
            }
            guard let supplied else {
                throw MusterCryptoError(
                    .passphraseRequired,
                    "The key file at \(path) is sealed with a passphrase; supply the passphrase to use it."
                )
            }
            let key = try PassphraseSeal.deriveKey(
                passphrase: supplied,
                salt: salt,
                opslimit: opslimit,
                memlimit: memlimit
            )
            seed = try PassphraseSeal.open(sealedSeed, nonce: nonce, key: key, path: path)
        }

        let keyPair = try SigningKeyPair(seed: seed)
        guard keyPair.publicKey == stated else {
            throw MusterCryptoError(
                .badKeyFile,
                "The key file at \(path) is inconsistent: its seed does not produce its stated public key. "
                    + "The file is damaged or was edited; restore it from a backup."
            )
        }
        return keyPair
    }

    /// Whether the key file at `path` is sealed with a passphrase (so a caller
    /// knows to prompt before reading). Applies the same permission and format
    /// checks as `read`.
    public static func isSealed(path: String) throws(MusterCryptoError) -> Bool {
        if case .sealed = try protection(of: loadDocument(path)) { return true }
        return false
    }

    /// Writes a secret text file atomically with mode 0600 from the start
    /// (temporary file opened 0600, written, fsync'd, renamed into place).
    /// Used for key files and venue files. An existing file is replaced only
    /// if `overwrite` is true.
    public static func writeSecretFile(_ contents: String, to path: String, overwrite: Bool) throws(MusterCryptoError) {
        let bytes = try SecureBytes(copying: contents.utf8)
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws(MusterCryptoError) in
            try SecretFile.store(raw, at: path, overwrite: overwrite)
        }
    }

    // MARK: Internals

    private static func loadDocument(_ path: String) throws(MusterCryptoError) -> KeyFileDocument {
        try KeyFileDocument(parsing: SecretFile.load(path, what: "key file"), path: path)
    }

    /// Checks the format version and works out which fields hold the seed.
    private static func protection(of document: KeyFileDocument) throws(MusterCryptoError) -> Protection {
        guard let format = try document.string("format") else { throw document.missing("format") }
        guard format == formatVersion else {
            throw document.invalid("it uses an unsupported format (this version of Muster reads \"\(formatVersion)\")")
        }
        let sealedPresent = sealedFieldNames.filter { document.has($0) }
        if document.has("seed") {
            guard sealedPresent.isEmpty else {
                throw document.invalid("it has both a plain `seed` and passphrase-sealing fields")
            }
            return .plain
        }
        guard !sealedPresent.isEmpty else {
            throw document.invalid("it has neither a `seed` nor a `sealed_seed`")
        }
        guard let kdf = try document.string("kdf") else { throw document.missing("kdf") }
        guard kdf == PassphraseSeal.kdfName else {
            throw document.invalid("it uses an unsupported key derivation (expected \"\(PassphraseSeal.kdfName)\")")
        }
        return .sealed(
            salt: try document.hexBytes("salt", count: PassphraseSeal.saltByteCount),
            opslimit: try document.integer("opslimit", in: PassphraseSeal.opslimitBounds),
            memlimit: try document.integer("memlimit", in: PassphraseSeal.memlimitBounds),
            nonce: try document.hexBytes("nonce", count: PassphraseSeal.nonceByteCount),
            sealedSeed: try document.hexBytes("sealed_seed", count: PassphraseSeal.sealedByteCount)
        )
    }

    /// Builds `prefix + hex(secret) + suffix` directly in secure memory
    /// (`sodium_bin2hex`), so the plain seed's hex never exists in an ordinary
    /// String or array.
    private static func renderWithSecretHex(
        prefix: [UInt8],
        secret: SecureBytes,
        suffix: [UInt8]
    ) throws(MusterCryptoError) -> SecureBytes {
        let hexCount = secret.count * 2
        // sodium_bin2hex always writes a trailing NUL; the suffix (never empty here) overwrites it.
        precondition(!suffix.isEmpty, "renderWithSecretHex needs a non-empty suffix to absorb the NUL")
        let total = prefix.count + hexCount + suffix.count
        return try SecureBytes(count: total) { buffer throws(MusterCryptoError) in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for (offset, byte) in prefix.enumerated() { base[offset] = byte }
            let hexStart = UnsafeMutableRawPointer(base + prefix.count).assumingMemoryBound(to: CChar.self)
            let written = secret.withBytePointer { bytes in
                sodium_bin2hex(hexStart, hexCount + 1, bytes, secret.count)
            }
            _ = try Sodium.check("sodium_bin2hex", written)
            for (offset, byte) in suffix.enumerated() { base[prefix.count + hexCount + offset] = byte }
        }
    }
}
