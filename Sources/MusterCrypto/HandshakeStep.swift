/// The checks both handshakes make on the other side's messages, in one place so that the client
/// and the server check alike. Errors are worded from `role`'s side: a client's speak of "the
/// server", a server's of "the client".
enum HandshakeStep {
    /// Refuses a message of the wrong size; `what` names it ("The server's hello").
    static func checkSize(_ message: [UInt8], _ expected: Int, of what: String) throws(HandshakeError) {
        guard message.count == expected else {
            throw HandshakeError(.malformed, "\(what) must be \(expected) bytes, got \(message.count).")
        }
    }

    /// Checks the peer's hello (message 1 at the server, 2 at the client) and derives the session's
    /// secrets from it.
    ///
    /// The hello is the peer's ephemeral key and an authenticator under the network key: over that
    /// key alone in message 1, over it followed by the client's key in message 2.
    static func secrets(
        fromHello message: [UInt8],
        role: HandshakeSecrets.Role,
        networkKey: SecureBytes,
        ownSecret: SecureBytes,
        ownPublic: [UInt8]
    ) throws(HandshakeError) -> HandshakeSecrets {
        let peer = role.peerName
        try checkSize(message, HandshakeMessage.helloBytes, of: "The \(peer)'s hello")
        let peerEphemeral = Array(message[..<HandshakeCrypto.ephemeralBytes])
        try HandshakeCrypto.verifyAuthenticator(
            Array(message[HandshakeCrypto.ephemeralBytes...]),
            for: role == .client ? peerEphemeral + ownPublic : peerEphemeral,
            key: networkKey,
            failure: "The \(peer) does not use this venue's network key (its hello did not authenticate); "
                + "it belongs to another venue or is not a Muster kiosk."
        )
        return try HandshakeSecrets(
            role: role,
            networkKey: networkKey,
            ownSecret: ownSecret,
            ownPublic: ownPublic,
            peerPublic: peerEphemeral
        )
    }

    /// Splits the peer's opened proof (message 3 at the server, 4 at the client) into its long-term
    /// key and its signature, and checks the signature over `transcript`; `what` names the message.
    static func verifiedProof(
        _ plaintext: [UInt8],
        over transcript: SecureBytes,
        role: HandshakeSecrets.Role,
        of what: String
    ) throws(HandshakeError) -> (key: SigningPublicKey, signature: [UInt8]) {
        guard plaintext.count == HandshakeMessage.authPlaintextBytes,
            let key = try? SigningPublicKey(bytes: plaintext[..<SigningPublicKey.byteCount])
        else {
            throw HandshakeError(.malformed, "\(what) has the wrong layout.")
        }
        let signature = Array(plaintext[SigningPublicKey.byteCount...])
        guard HandshakeCrypto.isValid(signature, by: key, over: transcript) else {
            throw HandshakeError(
                .badSignature,
                "The \(role.peerName) \(key.fingerprint) did not prove its identity (bad signature)."
            )
        }
        return (key, signature)
    }

    /// Asks the caller's `authorize` about the proven peer key.
    static func authorize(
        _ key: SigningPublicKey,
        by authorize: (SigningPublicKey) -> Bool,
        role: HandshakeSecrets.Role
    ) throws(HandshakeError) {
        guard authorize(key) else {
            throw HandshakeError(
                .notAuthorized,
                "The \(role.peerName) \(key.fingerprint) is not authorized (not on the roster)."
            )
        }
    }
}

extension HandshakeSecrets.Role {
    /// The other end, as error messages name it.
    var peerName: String { self == .client ? Self.server.rawValue : Self.client.rawValue }
}
