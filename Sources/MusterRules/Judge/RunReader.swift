public import MusterCore
import MusterCrypto

/// What ``RunJudge`` reads of a store while it judges a run: the deltas held at seqs the run repeats,
/// and the evidence of forks kept there. The judge never writes; a store answers from the state it had
/// when the run came in (``Replica`` from its transaction, the simulator's memory store from memory).
///
/// A store can read nothing the judge would need after executing part of the plan: every read is at a seq
/// below the author's fork cut, which the steps of one plan never touch (see ``RunJudge``).
public protocol RunReader {
    /// How a read fails: a database error for the replica, `Never` in memory.
    associatedtype Failure: Error

    /// The delta held at `seq` of `author`, with its BLAKE2b-256.
    func held(_ author: AuthorID, seq: UInt64) throws(Failure) -> HeldDelta?

    /// The BLAKE2b-256 of the delta held at `seq` of `author` (the duplicate check, on every copy a peer
    /// sends again: the replica reads it without the envelope).
    func heldHash(_ author: AuthorID, seq: UInt64) throws(Failure) -> [UInt8]?

    /// The signed versions kept as evidence of `author`'s fork at `seq`, oldest first (at most two).
    func forkEvidence(of author: AuthorID, seq: UInt64) throws(Failure) -> [SignedDelta]

    /// Whether `delta`'s own signature verifies under its author's key. Ed25519 by default; the
    /// simulator's stores share a cache of pairs that verified, since every kiosk checks the same ones.
    func signatureVerifies(_ delta: SignedDelta) -> Bool

    /// `delta`'s envelope decoded, or its refusal as malformed. Decoded afresh by default; the
    /// simulator's memory stores share their decodings, since every kiosk decodes the same envelopes.
    func decode(_ delta: SignedDelta) throws(DeltaRejection) -> Delta
}

extension RunReader {
    public func heldHash(_ author: AuthorID, seq: UInt64) throws(Failure) -> [UInt8]? {
        try held(author, seq: seq)?.hash
    }

    public func signatureVerifies(_ delta: SignedDelta) -> Bool { Self.ed25519Verifies(delta) }

    public func decode(_ delta: SignedDelta) throws(DeltaRejection) -> Delta { try Self.decodeAfresh(delta) }

    /// A delta's body, or its refusal as malformed (after its signature was checked).
    public static func decodeAfresh(_ delta: SignedDelta) throws(DeltaRejection) -> Delta {
        do {
            return try delta.decode()
        } catch {
            throw DeltaRejection(.malformed, "delta does not decode: \(error)", ref: delta.ref)
        }
    }

    /// Ed25519, asked every time.
    public static func ed25519Verifies(_ delta: SignedDelta) -> Bool {
        guard let key = try? SigningPublicKey(bytes: delta.author.bytes) else { return false }
        return key.isValidSignature(delta.signature, for: delta.envelope)
    }
}

/// A delta a store holds, with the hash the next delta of its author names.
public struct HeldDelta: Sendable, Equatable {
    public let delta: SignedDelta
    public let hash: [UInt8]

    public init(delta: SignedDelta, hash: [UInt8]) {
        self.delta = delta
        self.hash = hash
    }
}

/// Checks a delta's own signature for a store that can answer without Ed25519 for a pair it has seen
/// verify: the simulator's stores, where every kiosk checks the same signed bytes. The answer must be
/// Ed25519's (verification is deterministic), so only the cost changes. `musterd` uses none.
public protocol SignatureChecking: Sendable {
    /// Whether `delta`'s signature verifies under its author's key.
    func verifies(_ delta: SignedDelta) -> Bool
}
