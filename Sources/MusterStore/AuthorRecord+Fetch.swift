import Foundation
import GRDB
import MusterCore

/// The one-statement read of an ``AuthorRecord``.
///
/// Why one statement: during a burst every peer's check-in arrives on its own, so each delta is a
/// run of its own and pays these lookups; as five statements they were 16 % of storing a peer's
/// delta (`muster-bench --only=ingest` under `perf`; 7c44db7, BENCHMARKS.md "What each optimisation
/// gained").
extension AuthorRecord {
    /// Each joined table is looked up by its primary key; an author with no row anywhere still
    /// gets one row (of nulls) from the one-row subquery.
    private static let sql = """
        SELECT h.seq AS head_seq, h.hash AS head_hash, d.hlc AS head_hlc, c.seq AS cut,
               r.name, r.location, r.role, r.envelope AS cert_envelope, r.signature AS cert_signature,
               v.watermark, v.watermark_hash, v.envelope AS revoke_envelope, v.signature AS revoke_signature
        FROM (SELECT ? AS author) AS a
        LEFT JOIN head AS h ON h.author = a.author
        LEFT JOIN delta AS d ON d.author = h.author AND d.seq = h.seq
        LEFT JOIN fork_cut AS c ON c.author = a.author
        LEFT JOIN roster AS r ON r.kiosk = a.author
        LEFT JOIN revocation AS v ON v.kiosk = a.author
        """

    static func fetch(_ author: AuthorID, policy: VenuePolicy, db: Database) throws -> AuthorRecord {
        guard
            let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [Data(author.bytes)])
        else { throw ReplicaError(.sqlite, "the author lookup returned no row") }
        let head: AuthorHead
        if let seq: Int64 = row["head_seq"], let hash: Data = row["head_hash"] {
            head = AuthorHead(author: author, seq: UInt64(seq), hash: Array(hash))
        } else {
            head = .empty(author)
        }
        let headHLC = (row["head_hlc"] as Int64?).map { HLC(packed: UInt64($0)) }
        let forkCut = (row["cut"] as Int64?).map { UInt64($0) }
        let role: Int64? = row["role"]
        let isDevice = role == Int64(EnrollRole.organizerDevice.rawValue)

        let membership: Membership
        var certificateHLC: HLC?
        if author == policy.organizer {
            membership = .organizer
        } else {
            if let envelope: Data = row["cert_envelope"], let signature: Data = row["cert_signature"] {
                certificateHLC = try SignedDelta(envelope: Array(envelope), signature: Array(signature)).hlc
            }
            if let watermark: Int64 = row["watermark"], let envelope: Data = row["revoke_envelope"],
                let signature: Data = row["revoke_signature"]
            {
                let evidence = try SignedDelta(envelope: Array(envelope), signature: Array(signature))
                membership = .revoked(watermark: UInt64(watermark), evidence: evidence)
            } else if let name: String = row["name"] {
                membership = isDevice ? .device(name: name) : .enrolled(name: name, location: row["location"])
            } else {
                membership = .unknown
            }
        }
        return AuthorRecord(
            head: head,
            headHLC: headHLC,
            forkCut: forkCut,
            membership: membership,
            isDevice: isDevice,
            certificateHLC: certificateHLC,
            watermarkHash: (row["watermark_hash"] as Data?).map { Array($0) }
        )
    }
}
