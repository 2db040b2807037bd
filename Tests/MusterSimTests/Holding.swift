import MusterCore
import MusterCrypto
import MusterRules
import MusterSim
import MusterStore

/// What a store holds, read through its public reads: heads, every delta as pages serve it (small pages,
/// so that where a page may end is compared too), the fork evidence a new session is given, where each
/// author stands on the roster, and a digest over the deltas both stores can compute.
struct Holding: Equatable, CustomStringConvertible {
    var heads: [AuthorHead]
    var deltas: [SignedDelta]
    var forkEvidence: [SignedDelta]
    var memberships: [Membership]
    var digest: String

    /// Pages of three: most end before the run's last delta, where the rule of a checked signature bites.
    static let pageLimit = 3

    init(replica: Replica, venue: DifferentialVenue) throws {
        let heads = try replica.heads()
        self.init(
            heads: heads,
            deltas: try Self.pages(heads) { author, seq in
                try replica.deltas(of: author, after: seq, limit: Self.pageLimit)
            },
            forkEvidence: try replica.forkEvidence(),
            memberships: try venue.authors.map { author throws(ReplicaError) in try replica.membership(of: author) }
        )
    }

    init(memory: MemoryStore, venue: DifferentialVenue) throws {
        let heads = try memory.heads()
        self.init(
            heads: heads,
            deltas: try Self.pages(heads) { author, seq in
                try memory.deltas(of: author, after: seq, limit: Self.pageLimit)
            },
            forkEvidence: try memory.forkEvidence(),
            memberships: venue.authors.map { memory.membership(of: $0) }
        )
    }

    private init(heads: [AuthorHead], deltas: [SignedDelta], forkEvidence: [SignedDelta], memberships: [Membership]) {
        self.heads = heads
        self.deltas = deltas
        self.forkEvidence = forkEvidence
        self.memberships = memberships
        var hasher = Blake2bHasher()
        hasher.update("muster-differential-digest-v1")
        for delta in deltas.sorted(by: { ($0.author, $0.seq) < ($1.author, $1.seq) }) {
            hasher.update(delta.author.bytes)
            hasher.update(Blake2b.hash256(delta.envelope))
        }
        digest = Hex.encode(hasher.finalize())
    }

    /// Every author's deltas, page after page, as a peer catching up would read them.
    private static func pages(
        _ heads: [AuthorHead],
        read: (AuthorID, UInt64) throws -> [SignedDelta]
    ) rethrows -> [SignedDelta] {
        var out: [SignedDelta] = []
        for head in heads {
            var after: UInt64 = 0
            while after < head.seq {
                let page = try read(head.author, after)
                guard let last = page.last else { break }
                out += page
                after = last.seq
            }
        }
        return out
    }

    var description: String {
        let held = heads.map { "\($0.author.short)#\($0.seq)" }
        return "digest \(digest.prefix(16)) heads \(held) served \(deltas.count) evidence \(forkEvidence.map(\.ref)) "
            + "roster \(memberships.map(Self.standing))"
    }

    private static func standing(_ membership: Membership) -> String {
        switch membership {
        case .organizer: "organizer"
        case .enrolled: "enrolled"
        case .device: "device"
        case .revoked(let watermark, let evidence): "revoked@\(watermark) by \(evidence.ref)"
        case .unknown: "unknown"
        }
    }
}
