import Foundation
import GRDB
import MusterCore
import MusterCrypto
public import MusterRules

extension Replica {
    /// BLAKE2b-256 over the materialized state in a canonical order, as hex.
    ///
    /// The materialized state is a pure function of the set of deltas, so two replicas that hold the
    /// same deltas have the same digest, whatever order the deltas arrived in. Local-only facts
    /// (arrival times, clock warnings, fork evidence) are left out on purpose.
    public func digest() throws(ReplicaError) -> String {
        try read { db in try Self.digest(db) }
    }

    static let digestQueries: [(table: String, sql: String)] = [
        ("campaign", "SELECT id, name FROM campaign ORDER BY id"),
        (
            "attendee",
            """
            SELECT campaign_id, key, COALESCE(email, key), first_name, last_name, company, ticket, salesforce_id, status,
                admitted, imported, walk_in FROM attendee_row ORDER BY campaign_id, key
            """
        ),
        ("walk_in_ticket", "SELECT * FROM walk_in_ticket ORDER BY campaign_id, ticket_key, author, seq"),
        ("presence", "SELECT * FROM presence ORDER BY author, seq"),
        ("note", "SELECT * FROM note ORDER BY author, seq"),
        ("undo", "SELECT * FROM undo ORDER BY target_author, target_seq, author, seq"),
        ("lock", "SELECT version, campaign_id, check_in_status, opens_at, closes_at, author, seq FROM lock_state"),
    ]

    /// State added after the first digest (issues 14, 15, 16, 35 and 37), hashed only when it has rows, so a
    /// replica without printed badges, door rules, a lock language, refused scans or replaced codes keeps the digest older versions
    /// compute for it.
    static let optionalDigestQueries: [(table: String, sql: String)] = [
        ("badge", "SELECT * FROM badge ORDER BY author, seq"),
        ("lock_rules", "SELECT rules FROM lock_state WHERE rules IS NOT NULL"),
        ("lock_language", "SELECT language FROM lock_state WHERE language IS NOT NULL"),
        ("scan", "SELECT * FROM scan ORDER BY author, seq"),
        ("badge_code", "SELECT * FROM badge_code ORDER BY author, seq"),
        ("redemption", "SELECT * FROM redemption ORDER BY author, seq"),
        ("session", "SELECT * FROM session ORDER BY id"),
        ("attendance", "SELECT * FROM attendance ORDER BY author, seq"),
        ("session_registration", "SELECT * FROM session_registration ORDER BY session_id, campaign_id, attendee_key"),
        (
            "attendee_details",
            "SELECT campaign_id, key, details FROM attendee_row WHERE details IS NOT NULL ORDER BY campaign_id, key"
        ),
    ]

    static func digest(_ db: Database) throws -> String {
        var hasher = Blake2bHasher()
        hasher.update("muster-state-digest-v1")
        let optional = try optionalDigestQueries.filter { query in
            try Row.fetchOne(db, sql: query.sql) != nil
        }
        for (table, sql) in digestQueries + optional {
            var writer = ByteWriter()
            writer.write(table)
            hasher.update(writer.bytes)
            let cursor = try Row.fetchCursor(db, sql: sql)
            while let row = try cursor.next() {
                var rowWriter = ByteWriter()
                for value in row.databaseValues { Self.encode(value, into: &rowWriter) }
                hasher.update(rowWriter.bytes)
            }
        }
        return Hex.encode(hasher.finalize())
    }

    /// Type-tagged, length-prefixed, so no two different rows encode alike.
    private static func encode(_ value: DatabaseValue, into writer: inout ByteWriter) {
        switch value.storage {
        case .null: writer.write(UInt8(0))
        case .int64(let int):
            writer.write(UInt8(1))
            writer.write(int)
        case .double(let double):
            writer.write(UInt8(2))
            writer.write(double.bitPattern)
        case .string(let string):
            writer.write(UInt8(3))
            writer.write(string)
        case .blob(let data):
            writer.write(UInt8(4))
            writer.writeBlob(Array(data))
        }
    }
}
