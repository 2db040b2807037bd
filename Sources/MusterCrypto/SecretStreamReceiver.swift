import CSodium

/// Decrypts the peer's direction of a session, started from the header the
/// peer's `SecretStreamSender` sent first.
///
/// Every message is authenticated and bound to its position in the stream,
/// so `open` refuses (`.badSignature`) any message that was altered,
/// truncated, reordered, replayed, or sealed under another key. The first
/// refusal also closes the receiver for good: a broken stream means an
/// attacker or a bug on the path, and the only safe reaction is to drop the
/// connection, so a caller cannot accidentally carry on past a forged frame.
/// After the `final` message the state is zeroed and `open` throws as well.
///
/// A final class, not `Sendable`: every `open` advances the shared state, so
/// it must have exactly one owner (one connection's reader). Pass it on with
/// `sending` if the owning task changes.
public final class SecretStreamReceiver {
    /// Bytes each sealed message adds to its plaintext
    /// (`crypto_secretstream_xchacha20poly1305_ABYTES`, 17).
    public static let overheadBytes: Int = crypto_secretstream_xchacha20poly1305_abytes()
    /// Length of the header the sender transmits first
    /// (`crypto_secretstream_xchacha20poly1305_HEADERBYTES`, 24).
    public static let headerBytes: Int = crypto_secretstream_xchacha20poly1305_headerbytes()

    private let state: SecretStreamState
    /// Why the receiver is closed, quoted when `open` is called again.
    private var closedReason: String?

    /// Starts reading a stream under a 32-byte `key` from the peer's 24-byte
    /// `header` (`.badLength` for either size being wrong). A wrong key is
    /// only detected at the first `open`.
    public init(key: SecureBytes, header: [UInt8]) throws(MusterCryptoError) {
        try Sodium.ensureInitialized()
        let keyBytes = crypto_secretstream_xchacha20poly1305_keybytes()
        guard key.count == keyBytes else {
            throw MusterCryptoError(.badLength, "A secretstream key must be \(keyBytes) bytes, got \(key.count).")
        }
        guard header.count == Self.headerBytes else {
            throw MusterCryptoError(
                .badLength,
                "A secretstream header must be \(Self.headerBytes) bytes, got \(header.count)."
            )
        }
        let state = try SecretStreamState()
        let status = header.withUnsafeBufferPointer { headerBuffer in
            key.withBytePointer { keyPointer in
                crypto_secretstream_xchacha20poly1305_init_pull(state.pointer, headerBuffer.baseAddress!, keyPointer)
            }
        }
        try Sodium.check(
            "crypto_secretstream_xchacha20poly1305_init_pull",
            status,
            code: .badSignature,
            message: "The peer's secretstream header was refused."
        )
        self.state = state
    }

    /// Verifies and decrypts the next message. `final` is true for the
    /// sender's last message, after which the receiver is closed.
    public func open(
        _ ciphertext: some Collection<UInt8>
    ) throws(MusterCryptoError) -> (plaintext: [UInt8], final: Bool) {
        if let closedReason {
            throw MusterCryptoError(.badSignature, closedReason)
        }
        let count = ciphertext.count
        guard count >= Self.overheadBytes else {
            throw close(
                "A secretstream message of \(count) bytes is shorter than its \(Self.overheadBytes)-byte overhead; it was truncated."
            )
        }
        let plaintextCount = count - Self.overheadBytes
        // One spare byte so the output pointer exists even for an empty message.
        var plaintext = [UInt8](repeating: 0, count: max(plaintextCount, 1))
        var written: UInt64 = 0
        var tag: UInt8 = 0
        let state = self.state
        let status = ByteBuffers.withContiguous(ciphertext) { input in
            plaintext.withUnsafeMutableBufferPointer { out in
                crypto_secretstream_xchacha20poly1305_pull(
                    state.pointer,
                    out.baseAddress!,
                    &written,
                    &tag,
                    input.baseAddress!,
                    UInt64(input.count),
                    nil,
                    0
                )
            }
        }
        do throws(MusterCryptoError) {
            try Sodium.check(
                "crypto_secretstream_xchacha20poly1305_pull",
                status,
                code: .badSignature,
                message: "A secretstream message failed authentication: it was altered, truncated, reordered, "
                    + "replayed or sealed under another key. Close the connection."
            )
        } catch {
            throw close(error.message)
        }
        guard written == UInt64(plaintextCount) else {
            ByteBuffers.zero(&plaintext)
            throw close(
                "libsodium call crypto_secretstream_xchacha20poly1305_pull returned \(written) bytes, expected \(plaintextCount)."
            )
        }
        if plaintextCount == 0 { plaintext = [] }
        let final = tag == crypto_secretstream_xchacha20poly1305_tag_final()
        if final {
            closedReason = "This secretstream already ended with the sender's final message; nothing may follow it."
            state.wipe()
        }
        return (plaintext, final)
    }

    /// Closes the receiver for good after a failure, zeroing its state, and
    /// returns the error to throw.
    private func close(_ message: String) -> MusterCryptoError {
        closedReason = "This secretstream was closed after an earlier message failed authentication."
        state.wipe()
        return MusterCryptoError(.badSignature, message)
    }
}
