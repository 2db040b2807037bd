import CSodium

/// Process-wide libsodium setup and the one place where libsodium return codes
/// are checked.
///
/// libsodium must be initialised once before use (it picks CPU-specific
/// implementations and seeds its RNG). Funnelling every status-returning call
/// through `check` means no return code is silently ignored and every failure
/// carries the name of the call that failed.
public enum Sodium {
    /// Result of the one and only `sodium_init` call. Swift runs the
    /// initialiser of a global/static `let` exactly once, atomically, so this
    /// is thread safe without an explicit lock.
    private static let initResult: Int32 = sodium_init()

    /// Initialises libsodium if that has not happened yet. Safe to call from
    /// any thread, any number of times.
    public static func ensureInitialized() throws(MusterCryptoError) {
        // sodium_init returns 0 on first success, 1 if already initialised, -1 on failure.
        try check("sodium_init", initResult < 0 ? initResult : 0, code: .sodiumInit)
    }

    /// Turns a libsodium status (0 = success) into a typed error naming the call.
    ///
    /// - Parameters:
    ///   - call: the libsodium function name, quoted in the error.
    ///   - result: its return value.
    ///   - code: the error code to use; callers pick a more specific one where a
    ///     failure has a known meaning (e.g. `.badSignature` for verification).
    ///   - message: optional sentence replacing the generic one. Must not contain secrets.
    static func check(
        _ call: String,
        _ result: Int32,
        code: MusterCryptoError.Code = .sodiumCall,
        message: String? = nil
    ) throws(MusterCryptoError) {
        guard result != 0 else { return }
        throw MusterCryptoError(
            code,
            message ?? "libsodium call \(call) failed (returned \(result))."
        )
    }

    /// Like `check`, for calls that return a pointer and signal failure with NULL.
    static func check<P>(_ call: String, _ pointer: P?) throws(MusterCryptoError) -> P {
        guard let pointer else {
            throw MusterCryptoError(
                .sodiumCall,
                "libsodium call \(call) failed (returned NULL); the system may be out of memory."
            )
        }
        return pointer
    }

    /// For calls whose failure is impossible given parameters this module has
    /// already validated (fixed output lengths, no key). A failure there means
    /// libsodium itself is broken, not that an input was bad, so it stops the
    /// process instead of silently producing a wrong digest or signature.
    static func mustSucceed(_ call: String, _ result: Int32) {
        do {
            try check(call, result)
        } catch {
            preconditionFailure("MusterCrypto internal invariant violated: \(error.message)")
        }
    }

    /// Initialises libsodium for APIs that cannot throw. Failure of sodium_init
    /// cannot be caused by caller input (it only fails if the platform has no
    /// usable randomness source), and those APIs are only reachable in practice
    /// after a throwing API (key generation, key loading) has succeeded.
    static func initializeForNonThrowingAPI() {
        do {
            try ensureInitialized()
        } catch {
            preconditionFailure("MusterCrypto: \(error.message)")
        }
    }
}
