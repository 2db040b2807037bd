import Foundation
import GRDB
import MusterRules
import MusterStore

/// What the checker needs from one replica, read from its SQLite file read-only.
struct ReplicaSnapshot: Sendable {
    /// A key of the presence table as the history names it: what kind, from which kiosk (the name in
    /// the author's certificate, as every view of the replica shows it), for whom.
    struct PresenceKey: Hashable, Sendable, Comparable {
        var kind: Operation.Kind
        var kiosk: String
        var email: String

        static func < (a: Self, b: Self) -> Bool {
            (a.kiosk, a.email, a.kind.rawValue) < (b.kiosk, b.email, b.kind.rawValue)
        }
    }

    var kiosk: Int
    var integrity: String
    var digest: String
    /// author hex → seq.
    var heads: [String: Int64]
    var presence: [PresenceKey: Int]
    var walkIns: Set<String>
    var lockVersion: UInt64?

    /// Reads kiosk `kiosk`'s replica at `path` (the daemon may be writing it).
    static func read(kiosk: Int, path: String, policy: VenuePolicy) throws -> ReplicaSnapshot {
        let replica = try Replica.openReadOnly(path: path, policy: policy)
        let digest = try replica.digest()
        try replica.close()
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            let integrity = try Self.integrity(db)
            var heads: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT hex(author) AS author, seq FROM head") {
                heads[row["author"]] = row["seq"]
            }
            var presence: [PresenceKey: Int] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.kind AS kind, COALESCE(r.name, '') AS kiosk, COALESCE(a.email, p.attendee_key) AS email,
                        count(*) AS n
                    FROM presence p LEFT JOIN attendee_row a ON a.campaign_id = p.campaign_id AND a.key = p.attendee_key
                        LEFT JOIN roster r ON r.kiosk = p.author
                    GROUP BY 1, 2, 3
                    """
            )
            for row in rows {
                let kind: Operation.Kind
                switch row["kind"] as Int {
                case 4: kind = .checkIn
                case 5: kind = .checkOut
                default: kind = .register
                }
                let key = PresenceKey(kind: kind, kiosk: row["kiosk"], email: (row["email"] as String).lowercased())
                presence[key, default: 0] += row["n"] as Int
            }
            let walkIns = Set(
                try String.fetchAll(db, sql: "SELECT COALESCE(email, key) FROM attendee_row WHERE walk_in = 1").map {
                    $0.lowercased()
                }
            )
            let lock = try Int64.fetchOne(db, sql: "SELECT version FROM lock_state WHERE id = 1")
            return ReplicaSnapshot(
                kiosk: kiosk,
                integrity: integrity,
                digest: digest,
                heads: heads,
                presence: presence,
                walkIns: walkIns,
                lockVersion: lock.map { UInt64($0) }
            )
        }
    }

    /// `PRAGMA integrity_check`, without the false "NULL value in T.C" reports of SQLite 3.40 on
    /// WITHOUT ROWID tables whose primary key columns are not declared first (RELIABILITY.md, finding 1):
    /// each such report is checked with a query and dropped only if the column really holds no NULL.
    static func integrity(_ db: Database) throws -> String {
        var messages = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        messages.removeAll { message in
            guard message.hasPrefix("NULL value in ") else { return false }
            let parts = message.dropFirst("NULL value in ".count).split(separator: ".")
            guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }),
                let nulls = try? Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM \"\(parts[0])\" WHERE \"\(parts[1])\" IS NULL"
                )
            else { return false }
            return nulls == 0
        }
        if messages.isEmpty { return "ok" }
        var unique: [String] = []
        for message in messages where !unique.contains(message) { unique.append(message) }
        return "\(messages.count) problem(s): " + unique.prefix(5).joined(separator: "; ")
    }

    /// The digest and heads only, for polling convergence.
    static func fingerprint(path: String, policy: VenuePolicy) -> String? {
        guard let replica = try? Replica.openReadOnly(path: path, policy: policy) else { return nil }
        defer { try? replica.close() }
        guard let digest = try? replica.digest() else { return nil }
        return digest
    }
}
