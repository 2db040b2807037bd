/// The accepting side of the sync handshake: checks that a connecting peer
/// holds the venue network key, learns and authorizes its long-term key, and
/// proves its own.
///
/// 1. `receiveHello(message 1)` checks `a_pub ‖ HMAC_K(a_pub)`, derives `ab`
///    and `k1`, and returns message 2: `b_pub ‖ HMAC_K(b_pub ‖ a_pub)`.
/// 2. `receiveAuth(message 3)` opens and verifies the client's key and
///    signature, asks `authorize`, and returns message 4 (our key and
///    signature, boxed) with the session keys.
///
/// Nothing is returned for a hello that fails the network-key check: the
/// caller closes the connection, so a peer without the key learns nothing,
/// not even our ephemeral key. Each step may be called once, in order;
/// anything else, and any failure, ends the handshake (later calls throw
/// `.malformed`) and releases, thereby zeroing, every secret it held.
///
/// A final class rather than a struct: the handshake is a state machine
/// advanced by successive calls, and a copy of it would duplicate the
/// ephemeral secret and allow the same step to run twice. It is deliberately
/// not `Sendable`: one connection drives it from one task, and the compiler
/// keeps it there (pass it on with `sending` if the task changes).
public final class ServerHandshake {
    private enum State {
        /// Waiting for message 1.
        case awaitingHello(ephemeralSecret: SecureBytes)
        /// Message 2 sent; waiting for message 3.
        case awaitingAuth(secrets: HandshakeSecrets)
        /// Finished or failed; holds no secrets.
        case ended
    }

    private let side: HandshakeSide
    private var state: State

    /// Prepares a handshake with a fresh ephemeral key.
    ///
    /// - Parameters:
    ///   - networkKey: the 32-byte venue network key (`.malformed` otherwise).
    ///   - keyPair: this kiosk's long-term key, which the client will learn.
    ///   - authorize: decides whether the proven client key may sync with us
    ///     (typically: is it on the roster); false gives `.notAuthorized`.
    public init(
        networkKey: SecureBytes,
        keyPair: SigningKeyPair,
        authorize: @escaping (SigningPublicKey) -> Bool
    ) throws(HandshakeError) {
        let (side, ephemeralSecret) = try HandshakeSide.start(
            .server,
            networkKey: networkKey,
            keyPair: keyPair,
            authorize: authorize
        )
        self.side = side
        self.state = .awaitingHello(ephemeralSecret: ephemeralSecret)
    }

    /// Takes message 1 from the client and returns message 2.
    ///
    /// Throws `.wrongNetworkKey` if the client does not hold our network key
    /// (send nothing back, just close), `.lowOrderPoint` for a degenerate
    /// ephemeral key, `.malformed` for a wrong size or a second call.
    public func receiveHello(_ message: [UInt8]) throws(HandshakeError) -> [UInt8] {
        let current = state
        state = .ended  // any failure below ends the handshake and drops its secrets
        guard case let .awaitingHello(ephemeralSecret) = current else {
            throw HandshakeError(
                .malformed,
                "The client's hello arrived out of order (receiveHello was already called)."
            )
        }
        let secrets = try side.secrets(fromHello: message, ephemeralSecret: ephemeralSecret)
        let ownPublic = side.ephemeralPublic
        let reply =
            ownPublic
            + (try HandshakeCrypto.authenticator(for: ownPublic + secrets.clientEphemeral, key: side.networkKey))
        state = .awaitingAuth(secrets: secrets)
        return reply
    }

    /// Takes message 3 from the client and returns message 4 (to send) and
    /// the authenticated client key with the session keys.
    ///
    /// Throws `.badSignature` if the client's proof does not open (tampered,
    /// or replayed from another session) or verify, `.notAuthorized` if
    /// `authorize` refuses it, `.malformed` for a wrong size or a call out of order.
    public func receiveAuth(_ message: [UInt8]) throws(HandshakeError) -> (accept: [UInt8], result: HandshakeResult) {
        let current = state
        state = .ended  // finished or failed, the secrets go with `current`
        guard case let .awaitingAuth(secrets) = current else {
            throw HandshakeError(
                .malformed,
                "The client's identity proof arrived out of order (call receiveHello first, once)."
            )
        }
        let (client, clientSignature) = try side.verifiedProof(
            message,
            of: "The client's identity proof",
            secrets: secrets,
            over: try secrets.clientTranscript()
        )
        try side.authorizePeer(client)
        let transcript = try secrets.serverTranscript(client: client, clientSignature: clientSignature)
        let accept = try side.proof(over: transcript, secrets: secrets).box
        let keys = try secrets.sessionKeys(client: client, server: side.keyPair.publicKey)
        return (accept, HandshakeResult(peer: client, sendKey: keys.serverToClient, receiveKey: keys.clientToServer))
    }
}
