import CSodium

/// One-shot BLAKE2b-256, the digest used for fingerprints and hash chains.
///
/// BLAKE2b is libsodium's `crypto_generichash`: fast, keyless here, and with a
/// 32-byte output long enough for collision resistance in audit chains.
public enum Blake2b {
    /// Digest length in bytes.
    public static let digestCount = 32

    /// Unkeyed BLAKE2b with a 32-byte output (`crypto_generichash`).
    public static func hash256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Sodium.initializeForNonThrowingAPI()
        var digest = [UInt8](repeating: 0, count: digestCount)
        let status = ByteBuffers.withContiguous(bytes) { input in
            digest.withUnsafeMutableBufferPointer { out in
                crypto_generichash(
                    out.baseAddress!,
                    digestCount,
                    input.baseAddress,
                    UInt64(input.count),
                    nil,
                    0
                )
            }
        }
        // Output length and (absent) key are fixed and valid, so this cannot fail on input.
        Sodium.mustSucceed("crypto_generichash", status)
        return digest
    }
}
