import CSodium

/// The `crypto_secretstream_xchacha20poly1305` state of one direction of a
/// session, in guarded memory.
///
/// The state holds the current subkey and nonce, i.e. everything needed to
/// read or forge the rest of the stream, so it lives in `sodium_malloc`'d
/// memory like any other secret (guard pages, locked against swapping) and is
/// zeroed the moment the stream ends, not just when this object goes away.
///
/// `sodium_malloc` places a block so that it *ends* on a page boundary, so
/// its start is only aligned when the size is a multiple of the alignment:
/// the size is rounded up to the alignment the shim reports (the same concern
/// `Blake2bHasher` has), and the pointer is checked before use.
final class SecretStreamState {
    /// The libsodium state; valid until `deinit`.
    let pointer: UnsafeMutablePointer<crypto_secretstream_xchacha20poly1305_state>
    private let byteCount: Int
    /// True once `wipe()` has run; the state must not be used afterwards.
    private(set) var isWiped = false

    /// Allocates a zeroed state, ready for `init_push` or `init_pull`.
    init() throws(MusterCryptoError) {
        try Sodium.ensureInitialized()
        let alignment = max(muster_secretstream_state_alignment(), 1)
        let size = max(
            crypto_secretstream_xchacha20poly1305_statebytes(),
            MemoryLayout<crypto_secretstream_xchacha20poly1305_state>.size
        )
        let rounded = (size + alignment - 1) / alignment * alignment
        let raw = try Sodium.check("sodium_malloc", sodium_malloc(rounded))
        guard Int(bitPattern: raw) % alignment == 0 else {
            sodium_free(raw)
            throw MusterCryptoError(
                .sodiumCall,
                "libsodium call sodium_malloc returned memory not aligned to \(alignment) bytes for the stream state."
            )
        }
        sodium_memzero(raw, rounded)
        self.pointer = raw.bindMemory(to: crypto_secretstream_xchacha20poly1305_state.self, capacity: 1)
        self.byteCount = rounded
    }

    /// Zeroes the state at once (stream finished or broken); it stays allocated until `deinit`.
    func wipe() {
        sodium_memzero(pointer, byteCount)
        isWiped = true
    }

    deinit {
        sodium_memzero(pointer, byteCount)  // sodium_free zeroes too; this says so explicitly
        sodium_free(pointer)
    }
}
