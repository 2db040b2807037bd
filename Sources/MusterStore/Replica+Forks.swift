import Foundation
import GRDB
public import MusterCore
public import MusterRules

/// Forks in the replica's tables: the evidence kept, a kiosk's chain cut, the organizer's losing branch
/// dropped. What makes each happen is ``RunJudge``'s (``RunJudge/judgeKioskFork(_:cut:plan:)``,
/// ``RunJudge/judgeOrganizerVersion(_:plan:)``).
extension Replica {
    /// Keeps each version of `evidence` of a fork at `ref`, unless it is kept already.
    static func keepForkEvidence(_ evidence: [SignedDelta], at ref: DeltaRef, db: Database, nowMillis: UInt64) throws {
        let author = Data(ref.author.bytes)
        let seq = Int64(clamping: ref.seq)
        for proof in evidence {
            try db.execute(
                sql: """
                    INSERT INTO fork_evidence(author, seq, envelope, signature, seen_at)
                    SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (
                        SELECT 1 FROM fork_evidence WHERE author = ? AND seq = ? AND envelope = ?)
                    """,
                arguments: [
                    author, seq, Data(proof.envelope), Data(proof.signature), Int64(clamping: nowMillis), author, seq,
                    Data(proof.envelope),
                ]
            )
        }
    }

    /// Replaces the evidence kept of the organizer's fork at `ref` (the version kept and one it beat).
    static func replaceForkEvidence(
        _ evidence: [SignedDelta],
        at ref: DeltaRef,
        db: Database,
        nowMillis: UInt64
    ) throws {
        let author = Data(ref.author.bytes)
        let seq = Int64(clamping: ref.seq)
        try db.execute(sql: "DELETE FROM fork_evidence WHERE author = ? AND seq = ?", arguments: [author, seq])
        for proof in evidence {
            try db.execute(
                sql: "INSERT INTO fork_evidence(author, seq, envelope, signature, seen_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [author, seq, Data(proof.envelope), Data(proof.signature), Int64(clamping: nowMillis)]
            )
        }
    }

    /// A kiosk (or device) forked at `ref`: its chain ends before that seq here, as on every replica
    /// (``ReplicaError/Code/forked``), and what it held from there is dropped (not set aside: the
    /// second version is proof of a lie, kept in `fork_evidence`).
    func cutChain(at ref: DeltaRef, db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO fork_cut(author, seq) VALUES (?, ?)
                ON CONFLICT(author) DO UPDATE SET seq = excluded.seq WHERE excluded.seq < fork_cut.seq
                """,
            arguments: [Data(ref.author.bytes), Int64(clamping: ref.seq)]
        )
        try dropChain(of: ref.author, from: ref.seq, db: db)
    }

    /// Drops `author`'s chain from `seq` on (a fork's cut, or the organizer's losing branch). Revocations
    /// it held stop counting: they are derived again without them, or a device's revocation past its fork
    /// would stay in force on the replicas that stored it before they saw the fork, and on no other.
    func dropChain(of author: AuthorID, from seq: UInt64, db: Database) throws {
        let dropsRevocations =
            try Bool.fetchOne(
                db,
                sql: "SELECT 1 FROM delta WHERE author = ? AND seq >= ? AND kind = ? LIMIT 1",
                arguments: [Data(author.bytes), Int64(clamping: seq), Int64(DeltaKind.revoke.rawValue)]
            ) ?? false
        let dropped = try Self.truncate(author, after: seq - 1, db: db)
        if dropsRevocations { _ = try Self.rederiveRevocations(policy: policy, db: db) }
        if dropped || dropsRevocations { try Materializer.rebuild(db: db) }
    }

    /// The (at most two) signed deltas proving that `author` forked at `seq`.
    /// The evidence of every cut this replica made (both signed versions at each author's cut seq),
    /// for a peer a session starts with: one that missed the evidence when it went round (cut off,
    /// crashed) holds the forked author's chain beyond the cut, and nothing else would tell it.
    public func forkEvidence() throws(ReplicaError) -> [SignedDelta] {
        try read { db in
            // The organizer's chain is never cut: its forks are the seqs where one version won.
            try Row.fetchAll(
                db,
                sql: """
                    SELECT author, seq FROM fork_cut
                    UNION SELECT DISTINCT author, seq FROM fork_evidence WHERE author = ?
                    ORDER BY author, seq
                    """,
                arguments: [Data(policy.organizer.bytes)]
            ).flatMap { row in
                let author: Data = row["author"]
                let seq: Int64 = row["seq"]
                guard let id = AuthorID(bytes: author) else { return [SignedDelta]() }
                return try Self.forkEvidence(of: id, seq: UInt64(seq), db: db)
            }
        }
    }

    static func forkEvidence(of author: AuthorID, seq: UInt64, db: Database) throws -> [SignedDelta] {
        try Row.fetchAll(
            db,
            sql: "SELECT envelope, signature FROM fork_evidence WHERE author = ? AND seq = ? ORDER BY id",
            arguments: [Data(author.bytes), Int64(clamping: seq)]
        ).map { try SignedDelta(row: $0) }
    }
}
