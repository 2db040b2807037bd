import CSodium

/// Incremental BLAKE2b-256 (`crypto_generichash_init/update/final`) for
/// digests over many rows, e.g. hashing a whole table without building one
/// big buffer.
///
/// Non-copyable because it owns a manually allocated libsodium state: a copy
/// would alias the state, and `finalize()` consumes the hasher so it cannot be
/// updated after the digest is taken. Feeding it the same bytes, in any split,
/// gives the same digest as `Blake2b.hash256`.
public struct Blake2bHasher: ~Copyable {
    /// libsodium declares the state over-aligned (64 bytes), so Swift imports
    /// it only as an opaque pointer; it lives in its own allocation with the
    /// alignment the shim reports.
    private let state: OpaquePointer
    private let stateByteCount: Int

    /// Starts an unkeyed 32-byte BLAKE2b digest.
    public init() {
        Sodium.initializeForNonThrowingAPI()
        stateByteCount = crypto_generichash_statebytes()
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: stateByteCount,
            alignment: muster_generichash_state_alignment()
        )
        state = OpaquePointer(raw)
        // Output length is fixed and no key is used, so this cannot fail on input.
        Sodium.mustSucceed(
            "crypto_generichash_init",
            crypto_generichash_init(state, nil, 0, Blake2b.digestCount)
        )
    }

    /// Appends bytes to the digest.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        let state = self.state
        let status = ByteBuffers.withContiguous(bytes) { input in
            crypto_generichash_update(state, input.baseAddress, UInt64(input.count))
        }
        Sodium.mustSucceed("crypto_generichash_update", status)
    }

    /// Appends the UTF-8 encoding of `string`.
    public mutating func update(_ string: String) {
        update(string.utf8)
    }

    /// Returns the 32-byte digest and ends the hasher.
    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Blake2b.digestCount)
        let state = self.state
        let status = digest.withUnsafeMutableBufferPointer { out in
            crypto_generichash_final(state, out.baseAddress!, Blake2b.digestCount)
        }
        Sodium.mustSucceed("crypto_generichash_final", status)
        return digest
    }

    deinit {
        let raw = UnsafeMutableRawPointer(state)
        sodium_memzero(raw, stateByteCount)  // the state is derived from the hashed data
        raw.deallocate()
    }
}
