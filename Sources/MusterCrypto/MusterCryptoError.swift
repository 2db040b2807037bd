public import MusterCore

/// The single error type thrown by MusterCrypto.
///
/// Callers (the CLI, the daemon) show `message` to a person, so every message
/// is a sentence saying what went wrong and, where possible, what to do about
/// it. Messages are built only from non-secret facts (paths, lengths, names of
/// libsodium calls, errno text); seeds, secret keys and passphrases never
/// appear in them, so an error can always be logged safely.
public struct MusterCryptoError: MessageError, Sendable, Equatable {
    /// What kind of failure this is, for callers that branch on it.
    public enum Code: Sendable, Equatable {
        /// `sodium_init` failed; no cryptography is available in this process.
        case sodiumInit
        /// A libsodium call returned an unexpected failure (out of memory, bad parameters).
        case sodiumCall
        /// An input had the wrong size (key, seed, signature, hex string, passphrase).
        case badLength
        /// A signature did not verify.
        case badSignature
        /// A key file is malformed, inconsistent or has unsafe permissions.
        case badKeyFile
        /// A sealed key file could not be opened with the passphrase given.
        case wrongPassphrase
        /// A sealed key file was read but no passphrase was supplied.
        case passphraseRequired
        /// A file system operation failed.
        case io
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence a person can act on; never contains secret material.
    public let message: String

    /// Creates an error. Internal code must only pass non-secret text as `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
