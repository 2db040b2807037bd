public import MusterCore
public import MusterCrypto
public import MusterRules
import Synchronization

/// The in-memory stand-in for ``ReplicaStore``, used above a few hundred kiosks (`--store memory`;
/// the default above 300), where a thousand SQLite files would measure the disk, not the protocol.
///
/// It judges every run with the replica's own ``RunJudge`` and carries the plan out in memory
/// (``MemoryStore+Ingest``): duplicates, gaps, the chain and its signatures, the roster, forks cut,
/// the organizer's forks resolved, revocations with their watermarks. `StoreDifferentialTests` feeds it
/// and ``Replica`` the same histories and requires the same reports and the same deltas. It does not
/// materialize attendees: its digest is a BLAKE2b over the set of (author, seq, hash), which, like the
/// replica's, is equal exactly when two kiosks hold the same deltas.
///
/// Every kiosk of a venue verifies the same signatures; the stores of one run share a
/// ``SignatureCache`` so each (envelope, signature) pair is verified with Ed25519 once per run
/// rather than once per kiosk. The answer is the same (verification is deterministic); only the
/// wall time of the run changes, and the store's cost in virtual time is charged as before.
public final class MemoryStore: KioskStore {
    let policy: VenuePolicy
    let signatures: SignatureCache
    let envelopes: EnvelopeCache
    private let epochText: String
    /// Everything the store holds: one value, so an organizer's submission that is refused leaves it
    /// as it was (``ingest(_:nowMillis:submitted:)``).
    var state: MemoryState

    public init(
        policy: VenuePolicy,
        roster: MemoryRoster,
        epoch: String,
        signatures: SignatureCache = SignatureCache(),
        envelopes: EnvelopeCache = EnvelopeCache()
    ) {
        self.policy = policy
        self.signatures = signatures
        self.envelopes = envelopes
        state = MemoryState(roster: roster)
        epochText = epoch
    }

    public func epoch() throws(ReplicaError) -> String { epochText }

    /// Every author's head, in the replica's order (by key).
    public func heads() throws(ReplicaError) -> [AuthorHead] {
        state.logs.keys.sorted().compactMap { author in
            guard let last = state.logs[author]?.last else { return nil }
            return AuthorHead(author: author, seq: last.delta.seq, hash: last.hash)
        }
    }

    /// A page that ends on a delta whose own signature was checked, as ``Replica/deltas(of:after:limit:)``
    /// serves it: a peer authenticates the page by that signature and the chain.
    public func deltas(of author: AuthorID, after seq: UInt64, limit: Int) throws(ReplicaError) -> [SignedDelta] {
        guard let log = state.logs[author], seq < UInt64(log.count) else { return [] }
        let start = Int(seq)
        let target = min(log.count, start + max(limit, 1))
        guard
            let end = log[start..<target].lastIndex(where: \.verified)
                ?? log[target...].firstIndex(where: \.verified)
        else { return [] }
        return log[start...end].map(\.delta)
    }

    public func appendLocal(
        _ body: DeltaBody,
        keyPair: SigningKeyPair,
        nowMillis: UInt64,
        nextHLC: (HLC?) -> HLC
    ) throws(ReplicaError) -> SignedDelta {
        let author = AuthorID(keyPair.publicKey)
        var signer = DeltaSigner(venue: policy.venue, keyPair: keyPair, head: state.head(of: author))
        let delta: SignedDelta
        do throws(DeltaSignerError) {
            delta = try signer.sign(body, hlc: nextHLC(nil))
        } catch {
            throw ReplicaError(.malformed, error.description, underlying: error)
        }
        do {
            try policy.authorize(delta)
        } catch {
            throw ReplicaError(error)
        }
        state.append(MemoryEntry(delta: delta, hash: signer.head.hash, verified: true))
        return delta
    }

    public func newestHLC(author: AuthorID) throws(ReplicaError) -> HLC? {
        state.logs[author]?.map(\.delta.hlc).max()
    }

    public func digest() throws(ReplicaError) -> String {
        var hasher = Blake2bHasher()
        hasher.update("muster-sim-memory-digest-v1")
        for author in state.logs.keys.sorted() {
            hasher.update(author.bytes)
            for entry in state.logs[author] ?? [] { hasher.update(entry.hash) }
        }
        return Hex.encode(hasher.finalize())
    }

    /// The evidence of every fork cut, and of every organizer seq where one version won, as
    /// ``Replica/forkEvidence()`` gives it to a new session.
    public func forkEvidence() throws(ReplicaError) -> [SignedDelta] {
        var refs = Set(state.forkCuts.map { DeltaRef(author: $0.key, seq: $0.value) })
        for ref in state.evidence.keys where ref.author == policy.organizer { refs.insert(ref) }
        return refs.sorted { ($0.author, $0.seq) < ($1.author, $1.seq) }.flatMap { state.evidence[$0] ?? [] }
    }

    /// Where `author` stands on the roster.
    public func membership(of author: AuthorID) -> Membership { state.record(of: author, policy: policy).membership }

    /// Nothing to lose: every stored delta was committed.
    public func reopen() throws(ReplicaError) {}
}

/// (envelope, signature) pairs that verified, shared by the stores of one run (memory and SQLite):
/// every kiosk checks the same signed bytes, so each pair meets Ed25519 once per run. Keyed by the
/// exact bytes signed and the signature (``BytesKey``), so a changed byte is checked afresh.
public final class SignatureCache: SignatureChecking {
    private let verified = Mutex<Set<SignedKey>>([])
    public init() {}

    /// An envelope and its signature, each hashed in one pass (not a byte at a time, and not
    /// through BLAKE2b first).
    private struct SignedKey: Hashable {
        let envelope: BytesKey
        let signature: BytesKey
    }

    /// Whether `delta`'s own signature verifies, asking Ed25519 only for a pair not seen to verify.
    public func verifies(_ delta: SignedDelta) -> Bool {
        let key = SignedKey(envelope: BytesKey(bytes: delta.envelope), signature: BytesKey(bytes: delta.signature))
        if verified.withLock({ $0.contains(key) }) { return true }
        guard let publicKey = try? SigningPublicKey(bytes: delta.author.bytes),
            publicKey.isValidSignature(delta.signature, for: delta.envelope)
        else { return false }
        verified.withLock { _ = $0.insert(key) }
        return true
    }
}
