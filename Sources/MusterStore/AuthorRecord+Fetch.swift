import Foundation
import GRDB
import MusterCore
public import MusterRules

/// The one-statement read of an ``AuthorRecord``.
///
/// Why one statement: during a burst every peer's check-in arrives on its own, so each delta is a
/// run of its own and pays these lookups; as five statements they were 16 % of storing a peer's
/// delta (`muster-bench --only=ingest` under `perf`; 7c44db7, BENCHMARKS.md "What each optimisation
/// gained").
extension AuthorRecord {
    /// Each joined table is looked up by its primary key; an author with no row anywhere still
    /// gets one row (of nulls) from the one-row subquery. Read by column index (``Column``).
    static let sql = """
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

    /// The columns of ``sql``, in order.
    private enum Column: Int32 {
        case headSeq, headHash, headHLC, cut, name, location, role, certEnvelope, certSignature
        case watermark, watermarkHash, revokeEnvelope, revokeSignature
    }

    /// - Parameter hot: the writer's prepared statements, inside its transactions; nil on a reader,
    ///   which uses GRDB's statement cache.
    static func fetch(
        _ author: AuthorID,
        policy: VenuePolicy,
        db: Database,
        hot: HotStatements? = nil
    ) throws -> AuthorRecord {
        let statement = try hot?.statement(.authorRecord, db: db) ?? db.cachedStatement(sql: sql)
        let record = try db.readFirst(statement) { row in
            row.blob(author.bytes)
        } read: { row in
            try AuthorRecord(author, policy: policy, row: row)
        }
        guard let record else { throw ReplicaError(.sqlite, "the author lookup returned no row") }
        return record
    }

    private init(_ author: AuthorID, policy: VenuePolicy, row: ColumnReader) throws {
        func int(_ column: Column) -> Int64? { row.int(column.rawValue) }
        func bytes(_ column: Column) -> [UInt8]? { row.bytes(column.rawValue) }
        // The record is the rules' (MusterRules): an initializer from here starts from its own.
        self.init(head: .empty(author), membership: .unknown)
        if let seq = int(.headSeq), let hash = bytes(.headHash) {
            head = AuthorHead(author: author, seq: UInt64(seq), hash: hash)
        } else {
            head = .empty(author)
        }
        headHLC = int(.headHLC).map { HLC(packed: UInt64($0)) }
        forkCut = int(.cut).map { UInt64($0) }
        isDevice = int(.role) == Int64(EnrollRole.organizerDevice.rawValue)
        watermarkHash = bytes(.watermarkHash)
        certificateHLC = nil
        guard author != policy.organizer else {
            membership = .organizer
            return
        }
        if let envelope = bytes(.certEnvelope), let signature = bytes(.certSignature) {
            certificateHLC = try SignedDelta(envelope: envelope, signature: signature).hlc
        }
        if let watermark = int(.watermark), let envelope = bytes(.revokeEnvelope),
            let signature = bytes(.revokeSignature)
        {
            let evidence = try SignedDelta(envelope: envelope, signature: signature)
            membership = .revoked(watermark: UInt64(watermark), evidence: evidence)
        } else if let name = row.text(Column.name.rawValue) {
            // NOT NULL beside the name.
            let location = row.text(Column.location.rawValue) ?? ""
            membership = isDevice ? .device(name: name) : .enrolled(name: name, location: location)
        } else {
            membership = .unknown
        }
    }
}
