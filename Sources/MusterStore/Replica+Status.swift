import Foundation
import GRDB
import MusterCore
public import MusterRules

extension Replica {
    /// Counts for the locked campaign (or all campaigns when unlocked), deltas per author, the digest.
    public func status() throws(ReplicaError) -> ReplicaStatus {
        try read { db in
            let view = ReplicaView(db)
            let lock = try view.lock()
            let scope = lock?.campaignID
            let filter = scope == nil ? "1" : "campaign_id = ?"
            let args: StatementArguments = scope.map { [$0] } ?? []
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql, arguments: args) ?? 0 }
            let checkOut = DeltaKind.checkOut.rawValue
            let authors = try Row.fetchAll(
                db,
                sql: """
                    SELECT h.author, h.seq, (SELECT COUNT(*) FROM delta d WHERE d.author = h.author) AS n
                    FROM head h ORDER BY h.author
                    """
            ).compactMap { row -> ReplicaStatus.AuthorCount? in
                let author: Data = row["author"]
                let seq: Int64 = row["seq"]
                return AuthorID(bytes: author).map {
                    ReplicaStatus.AuthorCount(author: $0, deltas: row["n"], headSeq: UInt64(seq))
                }
            }
            var status = ReplicaStatus(
                lock: lock,
                attendees: try count("SELECT COUNT(*) FROM attendee_row WHERE \(filter)"),
                checkedIn: try count(
                    "SELECT COUNT(DISTINCT campaign_id || char(0) || attendee_key) FROM live_presence WHERE \(filter) AND kind != \(checkOut)"
                ),
                walkIns: try count("SELECT COUNT(*) FROM attendee_row WHERE walk_in = 1 AND \(filter)"),
                inside: try count(
                    "SELECT COUNT(DISTINCT campaign_id || char(0) || attendee_key) FROM open_arrival WHERE \(filter)"
                ),
                authors: authors,
                // Forks, not evidence rows: each (author, seq) keeps up to two signed versions.
                forks: try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT hex(author) || ':' || seq) FROM fork_evidence")
                    ?? 0,
                clockWarnings: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM clock_warning") ?? 0,
                digest: try Self.digest(db)
            )
            if let campaign = scope { status.conflicts = try view.conflicts(campaignID: campaign).count }
            return status
        }
    }
}
