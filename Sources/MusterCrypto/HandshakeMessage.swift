/// Sizes of the four handshake messages, so the transport can read exactly
/// one message without any length prefix.
///
/// Every message has a fixed size: a length field would be one more thing a
/// peer without the network key could probe or lie about, and fixed sizes
/// mean the transport never buffers more than 112 bytes for an unauthenticated peer.
///
/// 1. client → server, `helloBytes`: `a_pub ‖ HMAC_K(a_pub)`
/// 2. server → client, `helloBytes`: `b_pub ‖ HMAC_K(b_pub ‖ a_pub)`
/// 3. client → server, `authBytes`: `secretbox_k1(A_pub ‖ sig_A)`
/// 4. server → client, `authBytes`: `secretbox_k1(B_pub ‖ sig_B)`
public enum HandshakeMessage {
    /// Messages 1 and 2: an X25519 public key (32) and an HMAC-SHA512-256 tag (32).
    public static let helloBytes = 64
    /// Messages 3 and 4: an Ed25519 public key (32) and signature (64) in a secretbox (16-byte tag).
    public static let authBytes = 112

    /// Plaintext of messages 3 and 4: public key followed by signature.
    static let authPlaintextBytes = SigningPublicKey.byteCount + SigningKeyPair.signatureByteCount
}
