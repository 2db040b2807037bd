import CSodium

/// Non-secret random bytes (salts, nonces, tokens) from libsodium's CSPRNG.
///
/// Uses `randombytes_buf`, which reads the kernel's random source, so callers
/// never need to choose or seed a generator. For secret material use
/// `SecureBytes.random(count:)`, which never places the bytes in an ordinary array.
public enum SecureRandom {
    /// `count` random bytes; a negative or zero count yields an empty array.
    public static func bytes(count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        Sodium.initializeForNonThrowingAPI()
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
        return out
    }
}
