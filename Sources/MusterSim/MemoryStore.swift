public import MusterCore
public import MusterCrypto
public import MusterStore

/// The in-memory stand-in for ``ReplicaStore``, used above a few hundred kiosks (`--store memory`;
/// the default above 300), where a thousand SQLite files would measure the disk, not the protocol.
///
/// Faithful to `Replica.ingest` where the protocol can tell: runs per author (the organizer's
/// first), duplicates counted, a different delta at a held seq refused as a fork, a gap refused
/// and the contiguous prefix kept, only enrolled authors, the hash chain and the newest delta's
/// signature checked by the same ``ChainVerifier``, and every delta authorized and decoded. It does
/// not materialize attendees: its digest is a BLAKE2b over the set of (author, seq, hash), which, like
/// the replica's, is equal exactly when two kiosks hold the same deltas.
///
/// Every kiosk of a venue verifies the same signatures; the stores of one run share a
/// ``SignatureCache`` so each (envelope, signature) pair is verified with Ed25519 once per run
/// rather than once per kiosk. The answer is the same (verification is deterministic); only the
/// wall time of the run changes, and the store's cost in virtual time is charged as before.
public final class MemoryStore: KioskStore {
    private let policy: VenuePolicy
    private let signatures: SignatureCache
    private let enrolled: Set<AuthorID>
    private let epochText: String
    /// Each author's log, in seq order (index = seq − 1), with the hash of every delta.
    private var logs: [AuthorID: [(delta: SignedDelta, hash: [UInt8])]] = [:]
    /// Authors in the order they were first stored, so heads come out in a stable order.
    private var authorOrder: [AuthorID] = []

    public init(
        policy: VenuePolicy,
        enrolled: Set<AuthorID>,
        epoch: String,
        signatures: SignatureCache = SignatureCache()
    ) {
        self.policy = policy
        self.signatures = signatures
        self.enrolled = enrolled
        epochText = epoch
    }

    public func epoch() throws(ReplicaError) -> String { epochText }

    public func heads() throws(ReplicaError) -> [AuthorHead] {
        authorOrder.compactMap { author in
            guard let last = logs[author]?.last else { return nil }
            return AuthorHead(author: author, seq: last.delta.seq, hash: last.hash)
        }
    }

    private func head(of author: AuthorID) -> AuthorHead {
        guard let last = logs[author]?.last else { return .empty(author) }
        return AuthorHead(author: author, seq: last.delta.seq, hash: last.hash)
    }

    public func deltas(of author: AuthorID, after seq: UInt64, limit: Int) throws(ReplicaError) -> [SignedDelta] {
        guard let log = logs[author], seq < UInt64(log.count) else { return [] }
        let end = min(log.count, Int(seq) + limit)
        return log[Int(seq)..<end].map(\.delta)
    }

    public func ingest(_ deltas: [SignedDelta], nowMillis: UInt64) throws(ReplicaError) -> IngestReport {
        let (runs, planned) = IngestBatch.plan(deltas, first: policy.organizer)
        var report = planned
        for run in runs { ingestRun(run, into: &report) }
        return report
    }

    private func ingestRun(_ run: [SignedDelta], into report: inout IngestReport) {
        guard let author = run.first?.author else { return }
        let head = head(of: author)
        var fresh: [SignedDelta] = []
        for delta in run {
            // One delta per seq in a run (`Replica.runsByAuthor`).
            if delta.seq > head.seq {
                fresh.append(delta)
                continue
            }
            if logs[author]?[Int(delta.seq) - 1].delta == delta {
                report.duplicates += 1
            } else {
                report.rejected.append(DeltaRejection(.fork, "two deltas at seq \(delta.seq)", ref: delta.ref))
            }
        }
        let (prefix, gap) = head.contiguousPrefix(of: fresh)
        if let gap { report.rejected.append(gap) }
        guard let first = prefix.first else { return }
        fresh.removeSubrange(prefix.endIndex...)
        guard author == policy.organizer || enrolled.contains(author) else {
            report.rejected.append(DeltaRejection(.notEnrolled, "\(author) is not on the roster", ref: first.ref))
            return
        }
        let hashes: [[UInt8]]
        do {
            hashes = try verifyChain(fresh, after: head)
        } catch {
            report.rejected.append(error)
            return
        }
        for (index, (delta, hash)) in zip(fresh, hashes).enumerated() {
            do {
                try policy.authorize(delta)
                _ = try delta.decode()
            } catch let error as DeltaRejection {
                report.rejected.append(error)
                return
            } catch {
                report.rejected.append(DeltaRejection(.malformed, "delta does not decode: \(error)", ref: delta.ref))
                return
            }
            append(delta, hash: hash)
            report.applied.append(delta)
            if index == fresh.count - 1 { report.signatureChecked.insert(delta.ref) }
        }
    }

    /// ``ChainVerifier/verify(run:after:)``'s rules, with the newest delta's signature looked up in
    /// the run's cache before Ed25519 is asked.
    private func verifyChain(_ run: [SignedDelta], after head: AuthorHead) throws(DeltaRejection) -> [[UInt8]] {
        guard let last = run.last else { return [] }
        let hashes = try ChainVerifier.links(of: run, after: head)
        guard let lastHash = hashes.last else { return [] }
        let key = lastHash + last.signature
        if signatures.verified.contains(key) { return hashes }
        guard let publicKey = try? SigningPublicKey(bytes: last.author.bytes),
            publicKey.isValidSignature(last.signature, for: last.envelope)
        else {
            throw DeltaRejection(.badSignature, "signature does not verify", ref: last.ref)
        }
        signatures.verified.insert(key)
        return hashes
    }

    private func append(_ delta: SignedDelta, hash: [UInt8]) {
        let author = delta.author
        if logs[author] == nil { authorOrder.append(author) }
        logs[author, default: []].append((delta, hash))
    }

    public func appendLocal(
        _ body: DeltaBody,
        keyPair: SigningKeyPair,
        nowMillis: UInt64,
        nextHLC: (HLC?) -> HLC
    ) throws(ReplicaError) -> SignedDelta {
        var signer = DeltaSigner(venue: policy.venue, keyPair: keyPair, head: head(of: AuthorID(keyPair.publicKey)))
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
        append(delta, hash: signer.head.hash)
        return delta
    }

    public func newestHLC(author: AuthorID) throws(ReplicaError) -> HLC? {
        logs[author]?.map(\.delta.hlc).max()
    }

    public func digest() throws(ReplicaError) -> String {
        var hasher = Blake2bHasher()
        hasher.update("muster-sim-memory-digest-v1")
        for author in authorOrder.sorted() {
            hasher.update(author.bytes)
            for entry in logs[author] ?? [] { hasher.update(entry.hash) }
        }
        return Hex.encode(hasher.finalize())
    }

    /// Nothing to lose: every stored delta was committed.
    public func reopen() throws(ReplicaError) {}
}

/// (BLAKE2b of an envelope, signature) pairs that verified, shared by the memory stores of one run.
/// Only the simulator's one thread touches it.
public final class SignatureCache {
    var verified: Set<[UInt8]> = []
    public init() {}
}
