/// The connecting side of the sync handshake: proves this kiosk's identity to
/// a server and learns the server's, both under the venue network key.
///
/// The protocol follows Secure Scuttlebutt's secret handshake, except that the
/// client need not know the server's key in advance (static peers are only
/// addresses): each side proves its long-term key by a signature over the
/// session transcript, inside a box only the other side can open.
///
/// 1. `hello()` → message 1: `a_pub ‖ HMAC_K(a_pub)`.
/// 2. `receiveHello(message 2)` checks `b_pub ‖ HMAC_K(b_pub ‖ a_pub)`, derives
///    `ab` and `k1`, and returns message 3: our key and signature, boxed.
/// 3. `receiveAccept(message 4)` opens the server's key and signature, checks
///    them (and `expectedServer`, and `authorize`) and returns the session keys.
///
/// Each step may be called once, in order; anything else, and any failure,
/// ends the handshake (later calls throw `.malformed`) and releases, thereby
/// zeroing, every secret it held. The caller then closes the connection.
///
/// A final class rather than a struct: the handshake is a state machine
/// advanced by successive calls, and a copy of it would duplicate the
/// ephemeral secret and allow the same step to run twice. It is deliberately
/// not `Sendable`: one connection drives it from one task, and the compiler
/// keeps it there (pass it on with `sending` if the task changes).
public final class ClientHandshake {
    private enum State {
        /// Before message 2; `helloSent` records whether `hello()` was called.
        case awaitingHello(ephemeralSecret: SecureBytes, helloSent: Bool)
        /// Message 3 sent; waiting for message 4.
        case awaitingAccept(secrets: HandshakeSecrets, clientSignature: [UInt8])
        /// Finished or failed; holds no secrets.
        case ended
    }

    private let side: HandshakeSide
    private let expectedServer: SigningPublicKey?
    private let helloMessage: [UInt8]
    private var state: State

    /// Prepares a handshake with a fresh ephemeral key.
    ///
    /// - Parameters:
    ///   - networkKey: the 32-byte venue network key (`.malformed` otherwise).
    ///   - keyPair: this kiosk's long-term key, which the server will learn.
    ///   - expectedServer: when set, any other server key is refused with
    ///     `.unexpectedServer` (e.g. a pinned static peer).
    ///   - authorize: decides whether the proven server key is acceptable
    ///     (typically: is it on the roster); false gives `.notAuthorized`.
    public init(
        networkKey: SecureBytes,
        keyPair: SigningKeyPair,
        expectedServer: SigningPublicKey? = nil,
        authorize: @escaping (SigningPublicKey) -> Bool
    ) throws(HandshakeError) {
        let (side, ephemeralSecret) = try HandshakeSide.start(
            .client,
            networkKey: networkKey,
            keyPair: keyPair,
            authorize: authorize
        )
        self.side = side
        self.expectedServer = expectedServer
        self.helloMessage =
            side.ephemeralPublic
            + (try HandshakeCrypto.authenticator(for: side.ephemeralPublic, key: networkKey))
        self.state = .awaitingHello(ephemeralSecret: ephemeralSecret, helloSent: false)
    }

    /// Message 1 (`HandshakeMessage.helloBytes`). Cannot fail, so a repeated
    /// call cannot throw: it returns the same bytes again and changes nothing
    /// (they are public and reveal nothing new). Must be called before `receiveHello`.
    public func hello() -> [UInt8] {
        if case let .awaitingHello(secret, helloSent: false) = state {
            state = .awaitingHello(ephemeralSecret: secret, helloSent: true)
        }
        return helloMessage
    }

    /// Takes message 2 from the server and returns message 3.
    ///
    /// Throws `.wrongNetworkKey` if the server does not hold our network key,
    /// `.lowOrderPoint` for a degenerate ephemeral key, `.malformed` for a
    /// wrong size or a call out of order.
    public func receiveHello(_ message: [UInt8]) throws(HandshakeError) -> [UInt8] {
        let current = state
        state = .ended  // any failure below ends the handshake and drops its secrets
        guard case let .awaitingHello(ephemeralSecret, helloSent) = current else {
            throw HandshakeError(
                .malformed,
                "The server's hello arrived out of order (receiveHello was already called)."
            )
        }
        guard helloSent else {
            throw HandshakeError(.malformed, "The server's hello arrived before ours was sent; call hello() first.")
        }
        let secrets = try side.secrets(fromHello: message, ephemeralSecret: ephemeralSecret)
        let (auth, signature) = try side.proof(over: try secrets.clientTranscript(), secrets: secrets)
        state = .awaitingAccept(secrets: secrets, clientSignature: signature)
        return auth
    }

    /// Takes message 4 from the server and returns the authenticated server
    /// key and the session keys.
    ///
    /// Throws `.badSignature` if the server's proof does not open or verify,
    /// `.unexpectedServer` if it is not `expectedServer`, `.notAuthorized` if
    /// `authorize` refuses it, `.malformed` for a wrong size or a call out of order.
    public func receiveAccept(_ message: [UInt8]) throws(HandshakeError) -> HandshakeResult {
        let current = state
        state = .ended  // finished or failed, the secrets go with `current`
        guard case let .awaitingAccept(secrets, clientSignature) = current else {
            throw HandshakeError(
                .malformed,
                "The server's accept arrived out of order (call hello() and receiveHello first, once each)."
            )
        }
        let server = try side.verifiedProof(
            message,
            of: "The server's accept",
            secrets: secrets,
            over: try secrets.serverTranscript(client: side.keyPair.publicKey, clientSignature: clientSignature)
        ).key
        if let expectedServer, expectedServer != server {
            throw HandshakeError(
                .unexpectedServer,
                "Expected the server \(expectedServer.fingerprint) but reached \(server.fingerprint); "
                    + "the address now belongs to another kiosk."
            )
        }
        try side.authorizePeer(server)
        let keys = try secrets.sessionKeys(client: side.keyPair.publicKey, server: server)
        return HandshakeResult(peer: server, sendKey: keys.clientToServer, receiveKey: keys.serverToClient)
    }
}
