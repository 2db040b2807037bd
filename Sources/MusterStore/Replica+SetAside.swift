import Foundation
import GRDB
public import MusterCore
public import MusterRules

extension Replica {
    /// Most set-aside deltas taken back in one call (one ingest batch).
    static let restoreBatch = 2_000

    /// The last seq of `author` this replica holds, in its log or set aside by a revocation: what
    /// ``RevocationVerdict`` needs another kiosk to hold before this kiosk may wipe itself.
    public func lastRecord(of author: AuthorID) throws(ReplicaError) -> UInt64 {
        try read { db in
            let key = Data(author.bytes)
            let logged = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM delta WHERE author = ?", arguments: [key])
            let aside = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM set_aside WHERE author = ?", arguments: [key])
            return UInt64(max(logged ?? 0, aside ?? 0))
        }
    }

    /// How many deltas a revocation set aside.
    public func setAsideCount() throws(ReplicaError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM set_aside") ?? 0 }
    }

    /// Offers the set-aside deltas to the log again, through the ordinary ingest (which judges them
    /// as it judges any peer's): those a revocation no longer cuts off are stored, and every one
    /// whose seq the log now holds leaves the set-aside table. Called after revocations change.
    @discardableResult
    public func restoreSetAside(nowMillis: UInt64, clockBoundMillis: UInt64) throws(ReplicaError) -> IngestReport {
        let rows: [SignedDelta] = try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT s.envelope, s.signature FROM set_aside s
                    WHERE NOT EXISTS (SELECT 1 FROM revocation r WHERE r.kiosk = s.author AND r.watermark < s.seq)
                    ORDER BY s.author, s.seq LIMIT ?
                    """,
                arguments: [Self.restoreBatch]
            ).map { try SignedDelta(row: $0) }
        }
        guard !rows.isEmpty else { return IngestReport() }
        let report = try ingest(rows, nowMillis: nowMillis, clockBoundMillis: clockBoundMillis)
        do {
            try writer().write { db in
                try db.execute(
                    sql: """
                        DELETE FROM set_aside WHERE EXISTS (
                            SELECT 1 FROM delta d WHERE d.author = set_aside.author AND d.seq = set_aside.seq)
                        """
                )
            }
        } catch {
            throw Replica.mapError(error)
        }
        return report
    }
}
