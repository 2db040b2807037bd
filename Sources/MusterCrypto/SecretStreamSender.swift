import CSodium

/// Encrypts one direction of a session. The 24-byte header goes to the peer first.
///
/// `crypto_secretstream_xchacha20poly1305` authenticates every message and
/// chains them: each carries an implicit counter, so the receiver detects a
/// message that was altered, dropped, reordered or replayed, and the `final`
/// tag lets it tell a clean end of stream from a truncated one. Keys come from
/// `HandshakeResult.sendKey`, fresh per session, so a header is never reused
/// under the same key.
///
/// A final class, not `Sendable`: every `seal` advances the shared state, so
/// it must have exactly one owner (one connection's writer). A copy would
/// reuse nonces; concurrent use would corrupt the state. Pass it on with
/// `sending` if the owning task changes. After a `final` message the state is
/// zeroed and further `seal` calls throw.
public final class SecretStreamSender {
    /// The stream header (`crypto_secretstream_xchacha20poly1305_HEADERBYTES`,
    /// 24 bytes). Not secret; send it before the first message.
    public let header: [UInt8]
    private let state: SecretStreamState

    /// Starts a stream under a 32-byte `key` (`.badLength` otherwise) with a fresh random header.
    public init(key: SecureBytes) throws(MusterCryptoError) {
        try Sodium.ensureInitialized()
        let keyBytes = crypto_secretstream_xchacha20poly1305_keybytes()
        guard key.count == keyBytes else {
            throw MusterCryptoError(.badLength, "A secretstream key must be \(keyBytes) bytes, got \(key.count).")
        }
        let state = try SecretStreamState()
        var header = [UInt8](repeating: 0, count: crypto_secretstream_xchacha20poly1305_headerbytes())
        let status = header.withUnsafeMutableBufferPointer { out in
            key.withBytePointer { keyPointer in
                crypto_secretstream_xchacha20poly1305_init_push(state.pointer, out.baseAddress!, keyPointer)
            }
        }
        try Sodium.check("crypto_secretstream_xchacha20poly1305_init_push", status)
        self.header = header
        self.state = state
    }

    /// Encrypts and authenticates one message: `plaintext.count +
    /// SecretStreamReceiver.overheadBytes` bytes out. With `final: true` the
    /// message is tagged as the end of the stream and the sender is closed.
    public func seal(_ plaintext: some Collection<UInt8>, final: Bool = false) throws(MusterCryptoError) -> [UInt8] {
        guard !state.isWiped else {
            throw MusterCryptoError(
                .sodiumCall,
                "This secretstream was already finished with a final message; start a new session to send more."
            )
        }
        let count = plaintext.count
        guard UInt64(count) <= UInt64(crypto_secretstream_xchacha20poly1305_messagebytes_max()) else {
            throw MusterCryptoError(
                .badLength,
                "A secretstream message of \(count) bytes is larger than libsodium allows."
            )
        }
        let tag =
            final
            ? crypto_secretstream_xchacha20poly1305_tag_final() : crypto_secretstream_xchacha20poly1305_tag_message()
        var ciphertext = [UInt8](repeating: 0, count: count + crypto_secretstream_xchacha20poly1305_abytes())
        var written: UInt64 = 0
        let state = self.state
        let status = ByteBuffers.withContiguous(plaintext) { message in
            ciphertext.withUnsafeMutableBufferPointer { out in
                // An empty message may have no base address; libsodium reads none of it, but wants a pointer.
                var placeholder: UInt8 = 0
                return withUnsafePointer(to: &placeholder) { empty in
                    crypto_secretstream_xchacha20poly1305_push(
                        state.pointer,
                        out.baseAddress!,
                        &written,
                        message.baseAddress ?? empty,
                        UInt64(message.count),
                        nil,
                        0,
                        tag
                    )
                }
            }
        }
        try Sodium.check("crypto_secretstream_xchacha20poly1305_push", status)
        guard written == UInt64(ciphertext.count) else {
            state.wipe()
            throw MusterCryptoError(
                .sodiumCall,
                "libsodium call crypto_secretstream_xchacha20poly1305_push wrote \(written) bytes, expected \(ciphertext.count)."
            )
        }
        if final { state.wipe() }
        return ciphertext
    }
}
