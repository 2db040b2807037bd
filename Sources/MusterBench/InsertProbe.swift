import Foundation
import GRDB

/// The raw SQLite insert rate: `(author, seq, envelope)` rows into a plain WITHOUT ROWID table in one
/// transaction through one prepared statement, on a WAL database with `synchronous=FULL` as the
/// replica opens it. No hashing, no materialized state: what the disk and SQLite alone allow.
enum InsertProbe {
    static func run(count: Int, directory: String) throws -> Double {
        let pool = try DatabasePool(path: directory + "/raw-insert.sqlite")
        defer { try? pool.close() }
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE raw_delta (author BLOB NOT NULL, seq INTEGER NOT NULL, envelope BLOB NOT NULL,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID
                    """
            )
        }
        let authors = (0..<8).map { index in [UInt8](repeating: UInt8(index), count: 32) }
        let envelope = [UInt8](repeating: 0xA5, count: 200)
        let rows: [StatementArguments] = (0..<count).map { index in
            let author = Data(authors[index % authors.count])
            return [author, Int64(index / authors.count + 1), Data(envelope)]
        }
        let (_, seconds) = try Stopwatch.time {
            try pool.write { db in
                let statement = try db.makeStatement(
                    sql: "INSERT INTO raw_delta(author, seq, envelope) VALUES (?, ?, ?)"
                )
                for arguments in rows { try statement.execute(arguments: arguments) }
            }
        }
        return Double(count) / seconds
    }
}
