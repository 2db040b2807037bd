public import MusterCore

/// Why the replica refused or failed an operation. Carries what a person needs to act on it;
/// never secret material.
///
/// The verdict on one delta of a batch is a ``DeltaRejection`` (in ``IngestReport/rejected``), not
/// this: a batch with refused deltas still succeeds. The per-delta codes here are for an operation
/// that one refusal fails whole (an atomic submission, a local write; ``init(_:)``).
public struct ReplicaError: DeltaNamingError, Sendable {
    public enum Code: Sendable, Equatable {
        /// The database could not be opened or migrated.
        case open
        /// SQLite failed (I/O error, disk full, corruption...).
        case sqlite
        /// The disk is full: nothing was written.
        case diskFull
        /// A delta's signature does not verify.
        case badSignature
        /// A delta's `prev` does not match the hash of the author's previous delta.
        case brokenChain
        /// Deltas are missing between the author's head and this one.
        case gap
        /// Two different deltas with the same author and seq.
        case fork
        /// A delta from a different venue.
        case wrongVenue
        /// The author may not write this kind (e.g. a kiosk signing a lock).
        case notAuthorized
        /// The bytes do not decode.
        case malformed
        /// An organizer batch was built on an outdated head; rebuild and resend.
        case staleHead
        /// The author is not on the venue roster (never enrolled), or wrote past its revocation.
        case notEnrolled
        /// The author was revoked and this delta comes after its watermark.
        case revoked
        /// A timestamp that does not move forward along its author's chain, lies outside its
        /// certificate's window, or (for a local write) cannot advance at all.
        case badTimestamp
        /// The author signed two different deltas with the same seq (at or before this one): its
        /// chain ends before the lowest such seq on every replica.
        case forked
    }

    public let code: Code
    public let message: String
    public let ref: DeltaRef?
    /// The error thrown by caller code inside a replica transaction, passed through unchanged.
    public let underlying: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, ref: DeltaRef? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.ref = ref
        self.underlying = underlying
    }

    /// A delta's refusal, thrown where one refusal fails the whole operation (an atomic submission,
    /// a local write); the verdict is kept as `underlying`.
    public init(_ rejection: DeltaRejection) {
        let code: Code =
            switch rejection.code {
            case .badSignature: .badSignature
            case .brokenChain: .brokenChain
            case .gap: .gap
            case .fork, .superseded: .fork
            case .forked: .forked
            case .wrongVenue: .wrongVenue
            case .notAuthorized: .notAuthorized
            case .malformed: .malformed
            case .notEnrolled: .notEnrolled
            case .revoked: .revoked
            case .badTimestamp: .badTimestamp
            }
        self.init(code, rejection.message, ref: rejection.ref, underlying: rejection)
    }

    /// The delta's refusal this error carries, if it is one.
    public var rejection: DeltaRejection? { underlying as? DeltaRejection }
}
