import Foundation
import GRDB
public import MusterCore
public import MusterRules

extension Replica {
    /// The watermark of `muster revoke --before TIME`: the newest seq of `author` that was both
    /// stamped and received here before `millis` (0 if none), with everything before it.
    ///
    /// A stamp alone is the thief's word: stamps need only increase along a chain, so a kiosk taken
    /// at TIME can stamp what it writes after TIME as before it, as long as it wrote little before.
    /// The receipt time (`delta.received_at`, this replica's own clock, local and outside the digest)
    /// cannot be back-dated by anyone else; what arrived after TIME is beyond the watermark whatever
    /// its stamp. What the kiosk wrote before TIME but this replica received only later (it was cut
    /// off) goes too; `muster revoke` lists it, and `--watermark SEQ` keeps it.
    public func lastSeq(of author: AuthorID, before millis: UInt64) throws(ReplicaError) -> UInt64 {
        try read { db in
            let bound = Int64(clamping: HLC(physicalMillis: millis, logical: 0).packed)
            let seq = try Int64.fetchOne(
                db,
                sql: """
                    SELECT COALESCE(
                        (SELECT MIN(seq) - 1 FROM delta WHERE author = ?1 AND (hlc >= ?2 OR received_at >= ?3)),
                        (SELECT MAX(seq) FROM delta WHERE author = ?1),
                        0)
                    """,
                arguments: [Data(author.bytes), bound, Int64(clamping: millis)]
            )
            return UInt64(seq ?? 0)
        }
    }

    /// The BLAKE2b-256 of the envelope of `author`'s delta `seq`, if this replica holds it.
    public func deltaHash(of author: AuthorID, seq: UInt64) throws(ReplicaError) -> [UInt8]? {
        try read { db in try Self.heldHash(author, seq: seq, db: db) }
    }
}
