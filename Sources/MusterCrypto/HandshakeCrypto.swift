import CSodium

/// The libsodium primitives the sync handshake uses, checked and reported as
/// `HandshakeError`.
///
/// Every status still goes through `Sodium.check`, like the rest of the
/// module, and is then given the meaning it has in the handshake: a failed
/// HMAC means the peer lacks the network key, a failed scalar multiplication
/// means a low-order point, a box that will not open means a failed identity
/// proof, and anything else is a local libsodium failure (`.sodium`). Values
/// derived from secrets (the shared secret, hash inputs, transcripts) are
/// built in `SecureBytes`, never in ordinary arrays, so they are zeroed when
/// released.
enum HandshakeCrypto {
    /// Length of an X25519 public key or shared secret.
    static var ephemeralBytes: Int { crypto_scalarmult_bytes() }
    /// Length of a BLAKE2b-256 digest, and of every key the handshake derives.
    static let derivedKeyBytes = 32

    /// One piece of a hashed or signed transcript. Pieces are simply
    /// concatenated: every piece but the leading label has a fixed length,
    /// so the concatenation is unambiguous.
    enum Part {
        /// Domain-separation label, hashed as its UTF-8 bytes without a terminator.
        case label(String)
        /// A public value (ephemeral or long-term public key, signature).
        case bytes([UInt8])
        /// A secret value; copied only into guarded memory.
        case secret(SecureBytes)

        var count: Int {
            switch self {
            case let .label(text): text.utf8.count
            case let .bytes(bytes): bytes.count
            case let .secret(secret): secret.count
            }
        }
    }

    // MARK: Error mapping

    /// `Sodium.check`, re-labelled as a handshake error: `failure` when the failure has a known
    /// meaning (a box or authenticator that does not verify), else `.sodium` with Sodium's sentence.
    static func check(_ call: String, _ status: Int32, failure: HandshakeError? = nil) throws(HandshakeError) {
        do throws(MusterCryptoError) {
            try Sodium.check(call, status)
        } catch {
            throw failure ?? HandshakeError(.sodium, error.message)
        }
    }

    /// Runs module code that throws `MusterCryptoError` (allocating guarded
    /// memory, mostly) and reports its failures as `.sodium`.
    static func sodium<T>(_ body: () throws(MusterCryptoError) -> T) throws(HandshakeError) -> T {
        do throws(MusterCryptoError) {
            return try body()
        } catch {
            throw HandshakeError(.sodium, error.message)
        }
    }

    /// The venue network key keys both HMAC-SHA512-256 and BLAKE2b, so it
    /// must be exactly `crypto_auth_KEYBYTES` (32) long. Also makes sure
    /// libsodium is initialised before the first call that cannot check it.
    static func validateNetworkKey(_ key: SecureBytes) throws(HandshakeError) {
        try sodium { () throws(MusterCryptoError) in try Sodium.ensureInitialized() }
        guard key.count == crypto_auth_keybytes() else {
            throw HandshakeError(
                .malformed,
                "The venue network key must be \(crypto_auth_keybytes()) bytes, got \(key.count)."
            )
        }
    }

    // MARK: X25519

    /// A fresh ephemeral key pair: 32 random secret bytes in guarded memory
    /// and their public point (`crypto_scalarmult_base`, which clamps the scalar).
    static func ephemeralKeyPair() throws(HandshakeError) -> (secret: SecureBytes, publicKey: [UInt8]) {
        let secret = try sodium { () throws(MusterCryptoError) -> SecureBytes in
            try SecureBytes.random(count: crypto_scalarmult_scalarbytes())
        }
        var publicKey = [UInt8](repeating: 0, count: ephemeralBytes)
        let status = publicKey.withUnsafeMutableBufferPointer { out in
            secret.withBytePointer { scalar in crypto_scalarmult_base(out.baseAddress!, scalar) }
        }
        try check("crypto_scalarmult_base", status)
        return (secret, publicKey)
    }

    /// The X25519 shared secret `crypto_scalarmult(ownSecret, peerPublic)`,
    /// written straight into guarded memory. libsodium refuses known
    /// low-order points and any input giving an all-zero result (returns -1);
    /// that is reported as `.lowOrderPoint`.
    static func sharedSecret(ownSecret: SecureBytes, peerPublic: [UInt8]) throws(HandshakeError) -> SecureBytes {
        guard peerPublic.count == ephemeralBytes else {
            throw HandshakeError(
                .malformed,
                "The peer's ephemeral key must be \(ephemeralBytes) bytes, got \(peerPublic.count)."
            )
        }
        var status: Int32 = 0
        do throws(MusterCryptoError) {
            return try SecureBytes(count: ephemeralBytes) { out throws(MusterCryptoError) in
                let outPointer = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                status = peerPublic.withUnsafeBufferPointer { point in
                    ownSecret.withBytePointer { scalar in crypto_scalarmult(outPointer, scalar, point.baseAddress!) }
                }
                try Sodium.check("crypto_scalarmult", status)
            }
        } catch {
            // SecureBytes has already zeroed and freed whatever libsodium wrote.
            if status != 0 {
                throw HandshakeError(
                    .lowOrderPoint,
                    "The peer sent a low-order ephemeral key, which would make the session key predictable; "
                        + "the peer is broken or hostile."
                )
            }
            throw HandshakeError(.sodium, error.message)
        }
    }

    // MARK: HMAC-SHA512-256 under the network key

    /// `crypto_auth` tag of `message` under the network key.
    static func authenticator(for message: [UInt8], key: SecureBytes) throws(HandshakeError) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: crypto_auth_bytes())
        let status = tag.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { input in
                key.withBytePointer { keyPointer in
                    crypto_auth(out.baseAddress!, input.baseAddress!, UInt64(input.count), keyPointer)
                }
            }
        }
        try check("crypto_auth", status)
        return tag
    }

    /// Checks a `crypto_auth` tag in constant time (`crypto_auth_verify`);
    /// a mismatch is `.wrongNetworkKey` with `failure` as its message.
    static func verifyAuthenticator(
        _ tag: [UInt8],
        for message: [UInt8],
        key: SecureBytes,
        failure: String
    ) throws(HandshakeError) {
        guard tag.count == crypto_auth_bytes() else {
            throw HandshakeError(.malformed, "A handshake tag must be \(crypto_auth_bytes()) bytes, got \(tag.count).")
        }
        let status = tag.withUnsafeBufferPointer { tagBuffer in
            message.withUnsafeBufferPointer { input in
                key.withBytePointer { keyPointer in
                    crypto_auth_verify(tagBuffer.baseAddress!, input.baseAddress!, UInt64(input.count), keyPointer)
                }
            }
        }
        try check("crypto_auth_verify", status, failure: HandshakeError(.wrongNetworkKey, failure))
    }

    // MARK: Transcripts and BLAKE2b

    /// Concatenates `parts` into guarded memory.
    static func concatenate(_ parts: [Part]) throws(HandshakeError) -> SecureBytes {
        let total = parts.reduce(0) { $0 + $1.count }
        return try sodium { () throws(MusterCryptoError) -> SecureBytes in
            try SecureBytes(count: total) { buffer throws(MusterCryptoError) in
                var offset = 0
                for part in parts {
                    let destination = UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + part.count])
                    switch part {
                    case let .label(text):
                        Array(text.utf8).withUnsafeBytes { destination.copyMemory(from: $0) }
                    case let .bytes(bytes):
                        bytes.withUnsafeBytes { destination.copyMemory(from: $0) }
                    case let .secret(secret):
                        secret.withUnsafeBytes { destination.copyMemory(from: $0) }
                    }
                    offset += part.count
                }
            }
        }
    }

    /// BLAKE2b-256 (`crypto_generichash`) over the concatenation of `parts`,
    /// keyed when `key` is given. Both the input and the digest stay in
    /// guarded memory; the input is released (zeroed) on return.
    static func hash(_ parts: [Part], key: SecureBytes? = nil) throws(HandshakeError) -> SecureBytes {
        let input = try concatenate(parts)
        return try sodium { () throws(MusterCryptoError) -> SecureBytes in
            try SecureBytes(count: derivedKeyBytes) { out throws(MusterCryptoError) in
                let outPointer = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let status = input.withBytePointer { inputPointer in
                    if let key {
                        key.withBytePointer { keyPointer in
                            crypto_generichash(
                                outPointer,
                                out.count,
                                inputPointer,
                                UInt64(input.count),
                                keyPointer,
                                key.count
                            )
                        }
                    } else {
                        crypto_generichash(outPointer, out.count, inputPointer, UInt64(input.count), nil, 0)
                    }
                }
                try Sodium.check("crypto_generichash", status)
            }
        }
    }

    // MARK: Ed25519 over transcripts

    /// Signs a transcript held in guarded memory without copying it out.
    static func sign(_ transcript: SecureBytes, with keyPair: SigningKeyPair) -> [UInt8] {
        transcript.withUnsafeBytes { raw in keyPair.sign(raw.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Verifies a signature over a transcript held in guarded memory.
    static func isValid(_ signature: [UInt8], by signer: SigningPublicKey, over transcript: SecureBytes) -> Bool {
        transcript.withUnsafeBytes { raw in
            signer.isValidSignature(signature, for: raw.assumingMemoryBound(to: UInt8.self))
        }
    }

    // MARK: secretbox under k1

    /// The 24-byte secretbox nonce for one of the two boxed messages: all
    /// zero but the last byte. k1 is fresh per session and boxes exactly two
    /// messages, each with its own nonce, so a nonce is never reused under a key.
    static func boxNonce(_ last: UInt8) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: crypto_secretbox_noncebytes())
        nonce[nonce.count - 1] = last
        return nonce
    }

    /// `crypto_secretbox_easy(plaintext, nonce, key)`.
    static func seal(_ plaintext: [UInt8], nonce: [UInt8], key: SecureBytes) throws(HandshakeError) -> [UInt8] {
        let (sealed, status) = SecretBox.seal(plaintext, count: plaintext.count, nonce: nonce, key: key)
        try check("crypto_secretbox_easy", status)
        return sealed
    }

    /// `crypto_secretbox_open_easy`; a box that does not authenticate is
    /// `.badSignature` with `failure` as its message.
    static func open(
        _ sealed: [UInt8],
        nonce: [UInt8],
        key: SecureBytes,
        failure: String
    ) throws(HandshakeError) -> [UInt8] {
        guard sealed.count > crypto_secretbox_macbytes() else {
            throw HandshakeError(
                .malformed,
                "A handshake box must be longer than \(crypto_secretbox_macbytes()) bytes, got \(sealed.count)."
            )
        }
        var plaintext = [UInt8](repeating: 0, count: sealed.count - SecretBox.overhead)
        let status = SecretBox.open(sealed, into: &plaintext, nonce: nonce, key: key)
        try check("crypto_secretbox_open_easy", status, failure: HandshakeError(.badSignature, failure))
        return plaintext
    }
}
