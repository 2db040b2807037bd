import CSodium

/// Secret bytes (seeds, secret keys, derived keys) kept out of ordinary Swift
/// memory.
///
/// The buffer comes from `sodium_malloc`, so it sits between guard pages and
/// is locked against swapping where the OS allows; after initialisation it is
/// made read-only with `sodium_mprotect_readonly`, and on deinit `sodium_free`
/// zeroes and releases it. Comparison uses `sodium_memcmp` (constant time), and
/// `description`, `debugDescription` and the reflection mirror never show the
/// contents, so a stray `print` or `dump` cannot leak a key.
///
/// `@unchecked Sendable` is safe because the object is immutable after `init`:
/// `pointer` and `count` are `let`, the bytes are written only inside the
/// initialiser and the pages are then write-protected, and the only accessor
/// hands out a read-only view. Concurrent reads of immutable memory are race
/// free, and `deinit` runs only once no reference remains.
public final class SecureBytes: @unchecked Sendable {
    private let pointer: UnsafeMutableRawPointer
    /// Number of secret bytes.
    public let count: Int

    /// Allocates `count` guarded bytes, zero-fills them, lets `body` write the
    /// secret, then write-protects the pages. Internal so only this module can
    /// create secrets in place (e.g. as the output of `crypto_pwhash`).
    init(
        count: Int,
        initializingWith body: (UnsafeMutableRawBufferPointer) throws(MusterCryptoError) -> Void
    ) throws(MusterCryptoError) {
        guard count >= 0 else {
            throw MusterCryptoError(.badLength, "Secure buffers cannot have a negative length (\(count)).")
        }
        try Sodium.ensureInitialized()
        // sodium_malloc(0) is not guaranteed to be usable; one spare byte costs nothing.
        let allocation = max(count, 1)
        let pointer = try Sodium.check("sodium_malloc", sodium_malloc(allocation))
        sodium_memzero(pointer, allocation)
        do throws(MusterCryptoError) {
            try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
            try Sodium.check("sodium_mprotect_readonly", sodium_mprotect_readonly(pointer))
        } catch {
            sodium_free(pointer)  // zeroes before releasing
            throw error
        }
        self.pointer = pointer
        self.count = count
    }

    /// Zero-filled secret buffer of `count` bytes.
    public convenience init(count: Int) throws(MusterCryptoError) {
        try self.init(count: count) { _ throws(MusterCryptoError) in }
    }

    /// Copies `bytes` into a secure buffer. The source collection is not
    /// touched; callers holding secrets in ordinary memory should zero it.
    public convenience init(copying bytes: some Collection<UInt8>) throws(MusterCryptoError) {
        let expected = bytes.count
        try self.init(count: expected) { buffer throws(MusterCryptoError) in
            var index = 0
            for byte in bytes {
                guard index < expected else { break }
                buffer[index] = byte
                index += 1
            }
        }
    }

    /// `count` bytes from libsodium's CSPRNG (`randombytes_buf`), written
    /// straight into secure memory.
    public static func random(count: Int) throws(MusterCryptoError) -> SecureBytes {
        try SecureBytes(count: count) { buffer throws(MusterCryptoError) in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
    }

    /// Decodes hex straight into secure memory with libsodium's constant-time
    /// `sodium_hex2bin`, so a secret never passes through an ordinary array.
    /// `what` names the value in errors (e.g. "seed"); the hex itself is never quoted.
    convenience init(hexUTF8 hex: UnsafeRawBufferPointer, count expected: Int, what: String) throws(MusterCryptoError) {
        guard hex.count == expected * 2 else {
            throw MusterCryptoError(
                .badLength,
                "The \(what) must be \(expected * 2) hex characters, found \(hex.count)."
            )
        }
        try self.init(count: expected) { buffer throws(MusterCryptoError) in
            guard let out = buffer.baseAddress, let input = hex.baseAddress else { return }
            var decoded = 0
            let status = sodium_hex2bin(
                out.assumingMemoryBound(to: UInt8.self),
                expected,
                input.assumingMemoryBound(to: CChar.self),
                hex.count,
                nil,
                &decoded,
                nil
            )
            try Sodium.check(
                "sodium_hex2bin",
                status,
                code: .badLength,
                message: "The \(what) is not valid hex."
            )
            guard decoded == expected else {
                throw MusterCryptoError(.badLength, "The \(what) must decode to \(expected) bytes, got \(decoded).")
            }
        }
    }

    deinit {
        sodium_free(pointer)
    }

    /// Read-only access to the secret for the duration of `body`. Do not let
    /// the pointer escape, and do not copy the bytes into ordinary memory
    /// unless you zero that copy afterwards.
    public func withUnsafeBytes<R, E: Error>(
        _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Read-only view for internal parsers that keep `self` alive alongside the
    /// view (they store both); valid exactly as long as this object lives.
    var unsafeBytesWhileAlive: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: pointer, count: count)
    }

    /// Typed pointer to the secret for libsodium calls taking `const unsigned char *`.
    func withBytePointer<R>(_ body: (UnsafePointer<UInt8>) -> R) -> R {
        withExtendedLifetime(self) {
            body(UnsafePointer(pointer.assumingMemoryBound(to: UInt8.self)))
        }
    }

    /// Constant-time comparison (`sodium_memcmp`). Lengths are not secret, so
    /// differing lengths return false immediately.
    public func constantTimeEquals(_ other: SecureBytes) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        let status = withExtendedLifetime(other) { sodium_memcmp(pointer, other.pointer, count) }
        return (try? Sodium.check("sodium_memcmp", status)) != nil
    }
}

extension SecureBytes: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Shows only the length; the contents are never printed.
    public var description: String { "SecureBytes(\(count) bytes, redacted)" }
    /// Same as `description`: debugging output must not leak secrets either.
    public var debugDescription: String { description }
    /// Keeps `dump()` and debuggers from walking into the raw pointer.
    public var customMirror: Mirror { Mirror(self, children: ["count": count, "contents": "redacted"]) }
}
