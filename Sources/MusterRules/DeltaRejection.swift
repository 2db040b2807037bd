public import MusterCore

/// Why the replica refused one delta: the verdict of ``Replica/ingest(_:nowMillis:clockBoundMillis:atomic:durable:)``
/// on that delta, reported in ``IngestReport/rejected`` and acted on by the sync layer (a gap or a
/// broken chain is asked for again, a fork is passed on, anything else is final).
///
/// A verdict is not a failure: a batch with refused deltas still commits the rest. Only an atomic
/// submission turns its first refusal into a thrown ``ReplicaError`` (``ReplicaError/init(_:)``).
public struct DeltaRejection: DeltaNamingError, Sendable, Equatable {
    public enum Code: Sendable, Equatable {
        /// The signature (the run's newest delta's, or one checked along a long run) does not verify.
        case badSignature
        /// A delta's `prev` does not match the hash of the author's previous delta.
        case brokenChain
        /// Deltas are missing between the author's head and this one.
        case gap
        /// A second, different delta at a seq the replica holds: kept as evidence.
        case fork
        /// The author forked at or before this seq: its chain ends before the lowest forked seq.
        case forked
        /// The organizer signed another version of this seq, and that one wins on every replica
        /// (``OrganizerVersion/beats(_:_:)``): the organizer's chain is never cut.
        case superseded
        /// A delta of another venue.
        case wrongVenue
        /// The author may not write this kind, or the content claims what is not the author's to claim.
        case notAuthorized
        /// The bytes do not decode.
        case malformed
        /// The author is not on the venue roster.
        case notEnrolled
        /// The author was revoked and this delta comes after its watermark.
        case revoked
        /// A timestamp that does not move forward along its author's chain or lies outside its
        /// certificate's window.
        case badTimestamp
    }

    public let code: Code
    public let message: String
    /// The delta refused (nil only when the verdict is on a whole run, e.g. an empty one).
    public let ref: DeltaRef?

    public init(_ code: Code, _ message: String, ref: DeltaRef? = nil) {
        self.code = code
        self.message = message
        self.ref = ref
    }
}
