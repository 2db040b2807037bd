public import MusterCore
public import MusterCrypto
public import MusterRules
import MusterStore

/// A kiosk's real replica: `Replica` on SQLite (WAL, `synchronous=FULL`) in the run's directory.
public final class ReplicaStore: KioskStore {
    public let path: String
    private let policy: VenuePolicy
    private let certificates: [(SignedDelta, AuthorID)]
    private let signatures: SignatureCache
    private var replica: Replica
    /// Wall-clock bound on how far ahead a delta's timestamp may be without a warning (as musterd).
    static let clockBoundMillis: UInt64 = 5 * 60 * 1_000

    /// Opens (creating) the replica and puts every kiosk of the venue on its roster, as their
    /// certificates would on a real venue.
    /// - Parameter signatures: the run's cache of signatures that verified, shared by its stores.
    public init(
        path: String,
        policy: VenuePolicy,
        certificates: [(SignedDelta, AuthorID)],
        signatures: SignatureCache = SignatureCache()
    ) throws(ReplicaError) {
        self.path = path
        self.policy = policy
        self.certificates = certificates
        self.signatures = signatures
        replica = try Replica.open(path: path, policy: policy, signatures: signatures)
        for (certificate, kiosk) in certificates {
            try replica.admitCertificate(certificate, for: kiosk)
        }
    }

    public func epoch() throws(ReplicaError) -> String { try replica.epoch() }
    public func heads() throws(ReplicaError) -> [AuthorHead] { try replica.heads() }
    public func forkEvidence() throws(ReplicaError) -> [SignedDelta] { try replica.forkEvidence() }
    public func membership(of author: AuthorID) throws(ReplicaError) -> Membership {
        try replica.membership(of: author)
    }

    public func deltas(of author: AuthorID, after seq: UInt64, limit: Int) throws(ReplicaError) -> [SignedDelta] {
        try replica.deltas(of: author, after: seq, limit: limit)
    }

    public func ingest(_ deltas: [SignedDelta], nowMillis: UInt64) throws(ReplicaError) -> IngestReport {
        try replica.ingest(deltas, nowMillis: nowMillis, clockBoundMillis: Self.clockBoundMillis)
    }

    public func appendLocal(
        _ body: DeltaBody,
        keyPair: SigningKeyPair,
        nowMillis: UInt64,
        nextHLC: (HLC?) -> HLC
    ) throws(ReplicaError) -> SignedDelta {
        let written = try replica.appendLocal(keyPair: keyPair, nowMillis: nowMillis, nextHLC: nextHLC) { _ in
            LocalWrite.append(body, answer: ())
        }
        guard let delta = written.delta else { throw ReplicaError(.sqlite, "the local write stored nothing") }
        return delta
    }

    /// A door's scan of `query` (a doors run): judged and recorded as musterd's door does it, in one
    /// transaction; the delta written and whether it admitted.
    func appendScan(
        _ query: String,
        at door: DoorScan.Door,
        keyPair: SigningKeyPair,
        nowMillis: UInt64,
        dayStartMillis: Int64,
        nextHLC: (HLC?) -> HLC
    ) throws(ReplicaError) -> (SignedDelta, admitted: Bool) {
        let written = try replica.appendLocal(keyPair: keyPair, nowMillis: nowMillis, nextHLC: nextHLC) { view in
            let scan = try view.judgeScan(query, at: door, nowMillis: nowMillis, dayStartMillis: dayStartMillis)
            return LocalWrite.append(scan.body, answer: scan.decision.reason == nil)
        }
        guard let delta = written.delta else { throw ReplicaError(.sqlite, "the door's scan stored nothing") }
        return (delta, written.result)
    }

    /// Whether this replica holds the delta `ref`.
    func holds(_ ref: DeltaRef) throws(ReplicaError) -> Bool {
        try replica.deltas(of: ref.author, after: ref.seq - 1, limit: 1).first?.ref == ref
    }

    public func newestHLC(author: AuthorID) throws(ReplicaError) -> HLC? { try replica.newestHLC(author: author) }
    public func digest() throws(ReplicaError) -> String { try replica.digest() }

    /// Typed reads of the replica's state (for the Byzantine checker's facts).
    func view<T>(_ body: (ReplicaView) throws -> T) throws(ReplicaError) -> T { try replica.view(body) }

    public func reopen() throws(ReplicaError) {
        try replica.close()
        replica = try Replica.open(path: path, policy: policy, signatures: signatures)
    }

    /// Closes the database before the run's directory is removed.
    public func close() { try? replica.close() }
}
