/// Everything one handshake derives from the ephemeral exchange (after
/// message 2) and needs until the session keys exist (after message 4).
///
/// Both sides build one of these from their own ephemeral secret and the
/// peer's ephemeral public key, and from then on compute the same transcripts
/// and keys. It holds `ab` (the X25519 shared secret), `BLAKE2b(ab)`, `k1` (the
/// box key for messages 3 and 4) and `BLAKE2b(K)`, all in `SecureBytes`:
/// dropping the last reference to this object zeroes all four, which is how
/// the handshakes forget them the moment the session keys are derived or a
/// step fails. The network key `K` itself belongs to the caller and is only
/// referenced.
///
/// Labels start with `muster-shs-v1`, so nothing derived here can collide
/// with another protocol's (or a later version's) keys or signatures.
final class HandshakeSecrets {
    /// Which end of the connection built this; the raw value is how error messages name it.
    enum Role: String { case client, server }

    private static let boxLabel = "muster-shs-v1 box"
    private static let clientProofLabel = "muster-shs-v1 client"
    private static let serverProofLabel = "muster-shs-v1 server"
    private static let clientToServerLabel = "muster-shs-v1 c2s"
    private static let serverToClientLabel = "muster-shs-v1 s2c"
    /// Last nonce byte of message 3 (client auth) and message 4 (server accept).
    private static let clientAuthNonce: UInt8 = 1
    private static let serverAcceptNonce: UInt8 = 2

    /// The client's ephemeral public key (`a_pub`).
    let clientEphemeral: [UInt8]
    /// The server's ephemeral public key (`b_pub`).
    let serverEphemeral: [UInt8]

    private let networkKey: SecureBytes
    private let networkKeyHash: SecureBytes
    private let shared: SecureBytes
    private let sharedHash: SecureBytes
    private let boxKey: SecureBytes

    /// Computes `ab = X25519(ownSecret, peerPublic)` and everything derived from it.
    ///
    /// Throws `.lowOrderPoint` for a degenerate peer key and `.malformed` if
    /// the peer's ephemeral key equals our own: an honest peer never sends
    /// ours back, so that can only be a reflected message.
    init(
        role: Role,
        networkKey: SecureBytes,
        ownSecret: SecureBytes,
        ownPublic: [UInt8],
        peerPublic: [UInt8]
    ) throws(HandshakeError) {
        guard peerPublic != ownPublic else {
            throw HandshakeError(
                .malformed,
                "The peer sent back our own ephemeral key (a reflected handshake message)."
            )
        }
        let clientEphemeral = role == .client ? ownPublic : peerPublic
        let serverEphemeral = role == .client ? peerPublic : ownPublic
        let shared = try HandshakeCrypto.sharedSecret(ownSecret: ownSecret, peerPublic: peerPublic)
        self.boxKey = try HandshakeCrypto.hash(
            [.label(Self.boxLabel), .secret(shared), .bytes(clientEphemeral), .bytes(serverEphemeral)],
            key: networkKey
        )
        self.sharedHash = try HandshakeCrypto.hash([.secret(shared)])
        self.networkKeyHash = try HandshakeCrypto.hash([.secret(networkKey)])
        self.shared = shared
        self.networkKey = networkKey
        self.clientEphemeral = clientEphemeral
        self.serverEphemeral = serverEphemeral
    }

    // MARK: Transcripts

    /// What the client signs: `"muster-shs-v1 client" ‖ BLAKE2b(K) ‖ a_pub ‖ b_pub ‖ BLAKE2b(ab)`.
    /// Binding `ab` ties the proof to this session, so it cannot be replayed into another.
    func clientTranscript() throws(HandshakeError) -> SecureBytes {
        try HandshakeCrypto.concatenate([
            .label(Self.clientProofLabel), .secret(networkKeyHash),
            .bytes(clientEphemeral), .bytes(serverEphemeral), .secret(sharedHash),
        ])
    }

    /// What the server signs: the client's transcript fields plus the client's
    /// key and signature, so the server's proof also confirms whom it accepted.
    func serverTranscript(client: SigningPublicKey, clientSignature: [UInt8]) throws(HandshakeError) -> SecureBytes {
        try HandshakeCrypto.concatenate([
            .label(Self.serverProofLabel), .secret(networkKeyHash),
            .bytes(clientEphemeral), .bytes(serverEphemeral), .secret(sharedHash),
            .bytes(client.bytes), .bytes(clientSignature),
        ])
    }

    // MARK: Boxes (messages 3 and 4)

    /// Message 3 (`sender` is the client) or 4 (the server): the sender's key and signature, boxed
    /// under k1 with the sender's own nonce.
    func sealProof(_ plaintext: [UInt8], from sender: Role) throws(HandshakeError) -> [UInt8] {
        try HandshakeCrypto.seal(plaintext, nonce: Self.proofNonce(from: sender), key: boxKey)
    }

    /// Opens message 3 (`sender` is the client) or 4 (the server).
    func openProof(_ message: [UInt8], from sender: Role) throws(HandshakeError) -> [UInt8] {
        try HandshakeCrypto.open(
            message,
            nonce: Self.proofNonce(from: sender),
            key: boxKey,
            failure: "The \(sender.rawValue)'s identity proof could not be decrypted: it was altered in transit "
                + "or belongs to a different session (a replay)."
        )
    }

    private static func proofNonce(from sender: Role) -> [UInt8] {
        HandshakeCrypto.boxNonce(sender == .client ? clientAuthNonce : serverAcceptNonce)
    }

    // MARK: Session keys

    /// The two secretstream keys, each `BLAKE2b-256_K(label ‖ ab ‖ A_pub ‖ B_pub ‖ a_pub ‖ b_pub)`.
    /// Including both long-term keys binds the keys to the proven identities.
    func sessionKeys(
        client: SigningPublicKey,
        server: SigningPublicKey
    ) throws(HandshakeError) -> (clientToServer: SecureBytes, serverToClient: SecureBytes) {
        func derive(_ label: String) throws(HandshakeError) -> SecureBytes {
            try HandshakeCrypto.hash(
                [
                    .label(label), .secret(shared), .bytes(client.bytes), .bytes(server.bytes),
                    .bytes(clientEphemeral), .bytes(serverEphemeral),
                ],
                key: networkKey
            )
        }
        return (try derive(Self.clientToServerLabel), try derive(Self.serverToClientLabel))
    }
}
