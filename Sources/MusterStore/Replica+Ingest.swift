import Foundation
import GRDB
public import MusterCore
import MusterCrypto

extension Replica {
    /// Verifies and stores deltas from elsewhere (a peer, or the organizer's `muster` through the
    /// control socket), materializing each as it is stored.
    ///
    /// The whole batch is one transaction (group commit), but every author's run is verified before
    /// any of it is written: a run is authenticated by its hash chain and the signature of its newest
    /// delta (see ``ChainVerifier``), then each delta is authorized and decoded. Deltas the replica
    /// already has are counted as duplicates; a different delta at a seq the replica has is a fork:
    /// the evidence is kept and the delta refused.
    ///
    /// - Parameter atomic: when true, any refusal throws and nothing from the batch is stored
    ///   (organizer submissions are all or nothing).
    public func ingest(
        _ deltas: [SignedDelta], nowMillis: UInt64, clockBoundMillis: UInt64, atomic: Bool = false
    ) throws(ReplicaError) -> IngestReport {
        let pool = try writer()
        do {
            return try pool.write { db in
                var report = IngestReport()
                for run in Self.runsByAuthor(deltas) {
                    try ingestRun(run, db: db, nowMillis: nowMillis, clockBoundMillis: clockBoundMillis, into: &report)
                    if atomic, let first = report.rejected.first { throw first }
                }
                return report
            }
        } catch {
            throw Replica.mapError(error)
        }
    }

    /// Splits a batch into per-author runs sorted by seq, keeping authors in first-seen order.
    static func runsByAuthor(_ deltas: [SignedDelta]) -> [[SignedDelta]] {
        var order: [AuthorID] = []
        var runs: [AuthorID: [SignedDelta]] = [:]
        for delta in deltas {
            let author = delta.author
            if runs[author] == nil { order.append(author) }
            runs[author, default: []].append(delta)
        }
        return order.map { runs[$0]!.sorted { $0.seq < $1.seq } }
    }

    private func ingestRun(
        _ run: [SignedDelta], db: Database, nowMillis: UInt64, clockBoundMillis: UInt64,
        into report: inout IngestReport
    ) throws {
        guard let author = run.first?.author else { return }
        let head = try Self.head(of: author, db: db)
        var fresh: [SignedDelta] = []
        for delta in run {
            if delta.seq > head.seq {
                if fresh.last?.seq != delta.seq { fresh.append(delta) }
                continue
            }
            let storedHash = try Data.fetchOne(
                db, sql: "SELECT hash FROM delta WHERE author = ? AND seq = ?",
                arguments: [Data(author.bytes), Int64(delta.seq)])
            let hash = Blake2b.hash256(delta.envelope)
            if let storedHash, Array(storedHash) == hash {
                report.duplicates += 1
            } else {
                try recordFork(delta, db: db, nowMillis: nowMillis, into: &report)
            }
        }
        guard !fresh.isEmpty else { return }

        let hashes: [[UInt8]]
        do {
            hashes = try ChainVerifier.verify(run: fresh, after: head)
        } catch {
            report.rejected.append(error)
            return
        }
        for (delta, hash) in zip(fresh, hashes) {
            let decoded: Delta
            do {
                try policy.authorize(delta)
                decoded = try decodeVerified(delta)
            } catch {
                report.rejected.append(error)
                return
            }
            try store(delta, decoded: decoded, hash: hash, db: db, nowMillis: nowMillis)
            report.applied.append(delta)
            if delta.hlc.physicalMillis > nowMillis &+ clockBoundMillis {
                report.clockWarnings.append(delta.ref)
                try db.execute(
                    sql: "INSERT OR REPLACE INTO clock_warning(author, seq, ahead_ms) VALUES (?, ?, ?)",
                    arguments: [Data(author.bytes), Int64(delta.seq), Int64(delta.hlc.physicalMillis - nowMillis)])
            } else {
                report.newestAcceptedHLC = max(report.newestAcceptedHLC ?? .zero, delta.hlc)
            }
        }
    }

    private func decodeVerified(_ delta: SignedDelta) throws(ReplicaError) -> Delta {
        do {
            return try delta.decode()
        } catch {
            throw ReplicaError(.malformed, "delta does not decode: \(error)", ref: delta.ref)
        }
    }

    /// A second, different delta at a seq we already hold. Evidence is kept only when its signature
    /// verifies, so nobody but the author can fill the table.
    private func recordFork(
        _ delta: SignedDelta, db: Database, nowMillis: UInt64, into report: inout IngestReport
    ) throws {
        guard let key = try? SigningPublicKey(bytes: delta.author.bytes),
            key.isValidSignature(delta.signature, for: delta.envelope)
        else {
            report.rejected.append(ReplicaError(.badSignature, "signature does not verify", ref: delta.ref))
            return
        }
        let known = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM fork_evidence WHERE author = ? AND seq = ? AND envelope = ?)",
            arguments: [Data(delta.author.bytes), Int64(delta.seq), Data(delta.envelope)]) ?? false
        if !known {
            try db.execute(
                sql: "INSERT INTO fork_evidence(author, seq, envelope, signature, seen_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [
                    Data(delta.author.bytes), Int64(delta.seq), Data(delta.envelope), Data(delta.signature),
                    Int64(nowMillis),
                ])
        }
        report.rejected.append(
            ReplicaError(.fork, "author \(delta.author) signed two different deltas with seq \(delta.seq)", ref: delta.ref))
    }

    /// Appends one verified, authorized delta to the log, moves the author's head, and materializes it.
    func store(_ delta: SignedDelta, decoded: Delta, hash: [UInt8], db: Database, nowMillis: UInt64) throws {
        let author = Data(delta.author.bytes)
        try db.execute(
            sql: """
                INSERT INTO delta(author, seq, kind, hlc, hash, envelope, signature, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                author, Int64(delta.seq), Int64(delta.kind.rawValue), Int64(delta.hlc.packed), Data(hash),
                Data(delta.envelope), Data(delta.signature), Int64(nowMillis),
            ])
        try db.execute(
            sql: """
                INSERT INTO head(author, seq, hash) VALUES (?, ?, ?)
                ON CONFLICT(author) DO UPDATE SET seq = excluded.seq, hash = excluded.hash
                """,
            arguments: [author, Int64(delta.seq), Data(hash)])
        try Materializer.apply(decoded, db: db)
    }

    static func head(of author: AuthorID, db: Database) throws -> AuthorHead {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT seq, hash FROM head WHERE author = ?", arguments: [Data(author.bytes)])
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

    /// The stored deltas of one author after `seq`, oldest first (replication and tests).
    public func deltas(of author: AuthorID, after seq: UInt64 = 0, limit: Int = 10_000) throws(ReplicaError)
        -> [SignedDelta]
    {
        try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT envelope, signature FROM delta WHERE author = ? AND seq > ? ORDER BY seq LIMIT ?",
                arguments: [Data(author.bytes), Int64(seq), limit]
            ).map { row in
                let envelope: Data = row["envelope"]
                let signature: Data = row["signature"]
                return try SignedDelta(envelope: Array(envelope), signature: Array(signature))
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
