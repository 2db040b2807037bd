import MusterCore
import MusterCrypto
import MusterRules

/// A lying kiosk's store: the real replica for everyone else's deltas, and the ``Liar``'s first
/// branch as its own chain, so that its sync core serves and announces it like any kiosk's (each
/// peer is then shown its own branch on the way out, ``Liar/shown(_:to:)``).
///
/// Its own deltas coming back from peers, and the evidence of its forks, are never stored: a liar
/// does not cut itself, and goes on extending both branches.
final class LiarStore: KioskStore {
    let inner: ReplicaStore
    let liar: Liar

    init(inner: ReplicaStore, liar: Liar) {
        self.inner = inner
        self.liar = liar
    }

    func epoch() throws(ReplicaError) -> String { try inner.epoch() }

    func forkEvidence() throws(ReplicaError) -> [SignedDelta] { try inner.forkEvidence() }
    func membership(of author: AuthorID) throws(ReplicaError) -> Membership { try inner.membership(of: author) }

    func heads() throws(ReplicaError) -> [AuthorHead] {
        var heads = try inner.heads().filter { $0.author != liar.author }
        if liar.head.seq > 0 { heads.append(liar.head) }
        return heads.sorted { $0.author < $1.author }
    }

    func deltas(of author: AuthorID, after seq: UInt64, limit: Int) throws(ReplicaError) -> [SignedDelta] {
        guard author == liar.author else { return try inner.deltas(of: author, after: seq, limit: limit) }
        let chain = liar.branches[0]
        let start = Int(min(seq, UInt64(chain.count)))
        return Array(chain[start..<min(chain.count, start + max(limit, 1))])
    }

    func ingest(_ deltas: [SignedDelta], nowMillis: UInt64) throws(ReplicaError) -> IngestReport {
        try inner.ingest(deltas.filter { $0.author != liar.author }, nowMillis: nowMillis)
    }

    func appendLocal(
        _ body: DeltaBody,
        keyPair: SigningKeyPair,
        nowMillis: UInt64,
        nextHLC: (HLC?) -> HLC
    ) throws(ReplicaError) -> SignedDelta {
        throw ReplicaError(.notAuthorized, "a liar writes its chain itself (Liar.step)")
    }

    func newestHLC(author: AuthorID) throws(ReplicaError) -> HLC? {
        author == liar.author ? liar.branches[0].last?.hlc : try inner.newestHLC(author: author)
    }

    func digest() throws(ReplicaError) -> String { try inner.digest() }
    func reopen() throws(ReplicaError) { try inner.reopen() }
}
