/// What one side of the sync handshake holds from its start to its end, and the checks it makes
/// on the other side's messages: written once, so the client and the server check alike.
///
/// Errors are worded from `role`'s side: a client's speak of "the server", a server's of "the
/// client". The side's ephemeral secret is not here: each handshake keeps it in its state, which
/// drops it (zeroing it) the moment a step fails or the secrets are derived.
struct HandshakeSide {
    let role: HandshakeSecrets.Role
    /// The 32-byte venue network key.
    let networkKey: SecureBytes
    /// This kiosk's long-term key, which the peer will learn.
    let keyPair: SigningKeyPair
    /// Whether the proven peer key is acceptable (typically: is it on the roster).
    let authorize: (SigningPublicKey) -> Bool
    /// This side's fresh ephemeral public key.
    let ephemeralPublic: [UInt8]

    /// Checks the network key and makes a fresh ephemeral key pair: the side, and the secret half
    /// for the handshake's state.
    static func start(
        _ role: HandshakeSecrets.Role,
        networkKey: SecureBytes,
        keyPair: SigningKeyPair,
        authorize: @escaping (SigningPublicKey) -> Bool
    ) throws(HandshakeError) -> (side: HandshakeSide, ephemeralSecret: SecureBytes) {
        try HandshakeCrypto.validateNetworkKey(networkKey)
        let ephemeral = try HandshakeCrypto.ephemeralKeyPair()
        let side = HandshakeSide(
            role: role,
            networkKey: networkKey,
            keyPair: keyPair,
            authorize: authorize,
            ephemeralPublic: ephemeral.publicKey
        )
        return (side, ephemeral.secret)
    }

    /// The other end.
    var peer: HandshakeSecrets.Role { role == .client ? .server : .client }

    /// The other end, as error messages name it.
    var peerName: String { peer.rawValue }

    /// Refuses a message of the wrong size; `what` names it ("The server's hello").
    static func checkSize(_ message: [UInt8], _ expected: Int, of what: String) throws(HandshakeError) {
        guard message.count == expected else {
            throw HandshakeError(.malformed, "\(what) must be \(expected) bytes, got \(message.count).")
        }
    }

    /// Checks the peer's hello (message 1 at the server, 2 at the client) and derives the session's
    /// secrets from it and `ephemeralSecret`.
    ///
    /// The hello is the peer's ephemeral key and an authenticator under the network key: over that
    /// key alone in message 1, over it followed by the client's key in message 2.
    func secrets(fromHello message: [UInt8], ephemeralSecret: SecureBytes) throws(HandshakeError) -> HandshakeSecrets {
        try Self.checkSize(message, HandshakeMessage.helloBytes, of: "The \(peerName)'s hello")
        let peerEphemeral = Array(message[..<HandshakeCrypto.ephemeralBytes])
        try HandshakeCrypto.verifyAuthenticator(
            Array(message[HandshakeCrypto.ephemeralBytes...]),
            for: role == .client ? peerEphemeral + ephemeralPublic : peerEphemeral,
            key: networkKey,
            failure: "The \(peerName) does not use this venue's network key (its hello did not authenticate); "
                + "it belongs to another venue or is not a Muster kiosk."
        )
        return try HandshakeSecrets(
            role: role,
            networkKey: networkKey,
            ownSecret: ephemeralSecret,
            ownPublic: ephemeralPublic,
            peerPublic: peerEphemeral
        )
    }

    /// Opens the peer's proof (message 3 at the server, 4 at the client; `what` names it), splits it
    /// into the peer's long-term key and signature, and checks the signature over `transcript`.
    func verifiedProof(
        _ message: [UInt8],
        of what: String,
        secrets: HandshakeSecrets,
        over transcript: SecureBytes
    ) throws(HandshakeError) -> (key: SigningPublicKey, signature: [UInt8]) {
        try Self.checkSize(message, HandshakeMessage.authBytes, of: what)
        let plaintext = try secrets.openProof(message, from: peer)
        guard plaintext.count == HandshakeMessage.authPlaintextBytes,
            let key = try? SigningPublicKey(bytes: plaintext[..<SigningPublicKey.byteCount])
        else {
            throw HandshakeError(.malformed, "\(what) has the wrong layout.")
        }
        let signature = Array(plaintext[SigningPublicKey.byteCount...])
        guard HandshakeCrypto.isValid(signature, by: key, over: transcript) else {
            throw HandshakeError(
                .badSignature,
                "The \(peerName) \(key.fingerprint) did not prove its identity (bad signature)."
            )
        }
        return (key, signature)
    }

    /// This side's proof (message 3 from the client, 4 from the server): its key and its
    /// signature over `transcript`, boxed; and the signature.
    func proof(
        over transcript: SecureBytes,
        secrets: HandshakeSecrets
    ) throws(HandshakeError) -> (box: [UInt8], signature: [UInt8]) {
        let signature = HandshakeCrypto.sign(transcript, with: keyPair)
        return (try secrets.sealProof(keyPair.publicKey.bytes + signature, from: role), signature)
    }

    /// Asks `authorize` about the proven peer key.
    func authorizePeer(_ key: SigningPublicKey) throws(HandshakeError) {
        guard authorize(key) else {
            throw HandshakeError(
                .notAuthorized,
                "The \(peerName) \(key.fingerprint) is not authorized (not on the roster)."
            )
        }
    }
}
