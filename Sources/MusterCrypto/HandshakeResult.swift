/// What a completed handshake yields: who the peer is, and one
/// `crypto_secretstream` key per direction.
///
/// The two keys are distinct (each is derived under its own label), so the
/// two directions of a session never share a key stream. Hand `sendKey` to a
/// `SecretStreamSender` and `receiveKey` to a `SecretStreamReceiver`; the
/// peer's `sendKey` is our `receiveKey` and vice versa.
public struct HandshakeResult: Sendable {
    /// The peer's long-term Ed25519 key, proven by its signature over this session's transcript.
    public let peer: SigningPublicKey
    /// Key for our outgoing secretstream (32 bytes).
    public let sendKey: SecureBytes
    /// Key for the peer's incoming secretstream (32 bytes).
    public let receiveKey: SecureBytes
}

extension HandshakeResult: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Names the peer only; the session keys are never printed.
    public var description: String { "HandshakeResult(peer: \(peer.fingerprint), keys redacted)" }
    /// Same as `description`.
    public var debugDescription: String { description }
    /// Keeps `dump()` from descending into the key buffers.
    public var customMirror: Mirror { Mirror(self, children: ["peer": peer, "keys": "redacted"]) }
}
