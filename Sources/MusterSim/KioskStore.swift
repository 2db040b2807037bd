public import MusterCore
public import MusterCrypto
public import MusterRules

/// Where a simulated kiosk keeps its deltas: the real ``Replica`` (``ReplicaStore``) or, above a few
/// hundred kiosks, the in-memory stand-in ``MemoryStore`` that applies the same ingest rules.
///
/// The simulator calls it only from its one thread, in virtual-time order.
public protocol KioskStore: AnyObject {
    /// A random id of this replica's life (sent in `hello`, so a wiped kiosk is recognized).
    func epoch() throws(ReplicaError) -> String
    /// The newest delta held of every author.
    func heads() throws(ReplicaError) -> [AuthorHead]
    /// Up to `limit` consecutive deltas of `author` after `seq`.
    func deltas(of author: AuthorID, after seq: UInt64, limit: Int) throws(ReplicaError) -> [SignedDelta]
    /// Verifies and stores deltas from a peer, as `Replica.ingest` does.
    func ingest(_ deltas: [SignedDelta], nowMillis: UInt64) throws(ReplicaError) -> IngestReport
    /// Signs and commits one delta of this kiosk's own (a check-in).
    func appendLocal(
        _ body: DeltaBody,
        keyPair: SigningKeyPair,
        nowMillis: UInt64,
        nextHLC: (HLC?) -> HLC
    ) throws(ReplicaError) -> SignedDelta
    /// The newest timestamp of this author's deltas (a restarted kiosk's clock starts after it).
    func newestHLC(author: AuthorID) throws(ReplicaError) -> HLC?
    /// The state digest; equal sets of deltas give equal digests.
    func digest() throws(ReplicaError) -> String
    /// Every delta held, for the checker.
    func allDeltas() throws(ReplicaError) -> [SignedDelta]
    /// A crash: whatever was not committed is gone; the replica file is opened again.
    func reopen() throws(ReplicaError)
    /// Where `author` stands on this replica's roster (what admission judges a peer by).
    func membership(of author: AuthorID) throws(ReplicaError) -> Membership
    /// The evidence of every fork cut the store made (``MusterStore/Replica/forkEvidence()``).
    func forkEvidence() throws(ReplicaError) -> [SignedDelta]
}

extension KioskStore {
    /// A store that never cuts (the memory model) holds no evidence.
    public func forkEvidence() throws(ReplicaError) -> [SignedDelta] { [] }

    public func allDeltas() throws(ReplicaError) -> [SignedDelta] {
        var out: [SignedDelta] = []
        for head in try heads() {
            var after: UInt64 = 0
            while after < head.seq {
                let page = try deltas(of: head.author, after: after, limit: 10_000)
                guard let last = page.last else { break }
                out += page
                after = last.seq
            }
        }
        return out
    }
}
