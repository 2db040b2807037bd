import Foundation
import GRDB
public import MusterCore
public import MusterRules

/// The log: appending a verified delta, the heads (what a peer is told this replica holds) and the pages
/// it is sent.
extension Replica {
    /// Appends one verified, authorized delta to the log, moves the author's head (unless the caller
    /// moves it once for a whole run), and materializes it.
    func store(
        _ delta: SignedDelta,
        decoded: Delta,
        hash: [UInt8],
        verified: Bool,
        db: Database,
        nowMillis: UInt64,
        moveHead: Bool = true
    ) throws {
        try HotStatements.run(.insertDelta, hot, db: db) { row in
            // The author's bytes as the envelope carries them (see ``Stamp/init(_:envelope:)``).
            row.blob(delta.envelope[SignedDelta.authorRange])
            row.int(Int64(decoded.seq))
            row.int(Int64(delta.rawKind))
            row.int(Int64(decoded.hlc.packed))
            row.blob(delta.envelope)
            row.blob(delta.signature)
            row.int(Int64(nowMillis))
            row.bool(verified)
        }
        if moveHead { try Self.moveHead(of: decoded.author, to: decoded.seq, hash: hash, db: db) }
        try Materializer.apply(decoded, envelope: delta.envelope, hash: hash, db: db, hot: hot)
        if try Self.applyRoster(delta, decoded: decoded, policy: policy, db: db) {
            try Materializer.rebuild(db: db)
        }
    }

    /// Once per author run of a batch (a burst's every check-in), and once per local write: bound in
    /// place (``BoundStatement``), where an argument array was 13,000 instructions of each call.
    static func moveHead(of author: AuthorID, to seq: UInt64, hash: [UInt8], db: Database) throws {
        try db.run(
            """
            INSERT INTO head(author, seq, hash) VALUES (?, ?, ?)
            ON CONFLICT(author) DO UPDATE SET seq = excluded.seq, hash = excluded.hash
            """
        ) { row in
            row.blob(author.bytes)
            row.int(Int64(seq))
            row.blob(hash)
        }
    }

    static func head(of author: AuthorID, db: Database) throws -> AuthorHead {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT seq, hash FROM head WHERE author = ?"),
                arguments: [Data(author.bytes)]
            )
        else { return .empty(author) }
        let seq: Int64 = row["seq"]
        let hash: Data = row["hash"]
        return AuthorHead(author: author, seq: UInt64(seq), hash: Array(hash))
    }

    /// The newest delta this replica holds from `author`.
    public func head(of author: AuthorID) throws(ReplicaError) -> AuthorHead {
        try read { db in try Self.head(of: author, db: db) }
    }

    /// Every author's head, for status and (later) replication.
    public func heads() throws(ReplicaError) -> [AuthorHead] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT author, seq, hash FROM head ORDER BY author").compactMap { row in
                let author: Data = row["author"]
                let seq: Int64 = row["seq"]
                let hash: Data = row["hash"]
                return AuthorID(bytes: author).map { AuthorHead(author: $0, seq: UInt64(seq), hash: Array(hash)) }
            }
        }
    }

    /// The stored deltas of one author after `seq`, oldest first, as a page that a peer can verify.
    ///
    /// A page always ends on a delta whose own signature this replica checked (the newest of a
    /// verified run, or a local write), so the receiver can authenticate the whole page with that one
    /// signature and the hash chain. The page may therefore be a little shorter or longer than `limit`.
    public func deltas(
        of author: AuthorID,
        after seq: UInt64 = 0,
        limit: Int = 10_000
    ) throws(ReplicaError)
        -> [SignedDelta]
    {
        try read { db in
            let key = Data(author.bytes)
            let target = Int64(clamping: seq) + Int64(max(limit, 1))
            // Prepared once per reader connection: peers ask for pages many times a second.
            let end =
                try Int64.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT MAX(seq) FROM delta WHERE author = ? AND sig_verified = 1 AND seq > ? AND seq <= ?"
                    ),
                    arguments: [key, Int64(clamping: seq), target]
                )
                ?? Int64.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT MIN(seq) FROM delta WHERE author = ? AND sig_verified = 1 AND seq > ?"
                    ),
                    arguments: [key, target]
                )
            guard let end else { return [] }
            return try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT envelope, signature FROM delta WHERE author = ? AND seq > ? AND seq <= ? ORDER BY seq"
                ),
                arguments: [key, Int64(clamping: seq), end]
            ).map { row in
                try SignedDelta(row: row)
            }
        }
    }
}

extension Replica {
    /// The newest timestamp among an author's deltas, so a restarted kiosk's clock never runs
    /// behind what it already wrote.
    public func newestHLC(author: AuthorID) throws(ReplicaError) -> HLC? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(hlc) FROM delta WHERE author = ?", arguments: [Data(author.bytes)])
                .map { HLC(packed: UInt64($0)) }
        }
    }
}

extension Replica {
    /// The newest timestamp of any delta in the replica (for clock sanity checks).
    public func newestHLC() throws(ReplicaError) -> HLC? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(hlc) FROM delta").map { HLC(packed: UInt64($0)) }
        }
    }
}
