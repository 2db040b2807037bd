import Foundation
import GRDB
public import MusterCore

extension Replica {
    /// The newest seq of `author` stamped before `millis` (0 if none): the watermark of
    /// `muster revoke --before TIME`. Stamps increase along a chain, so everything up to it is
    /// exactly what was stamped before that time.
    public func lastSeq(of author: AuthorID, stampedBefore millis: UInt64) throws(ReplicaError) -> UInt64 {
        try read { db in
            let bound = Int64(clamping: HLC(physicalMillis: millis, logical: 0).packed)
            let seq = try Int64.fetchOne(
                db,
                sql: "SELECT MAX(seq) FROM delta WHERE author = ? AND hlc < ?",
                arguments: [Data(author.bytes), bound]
            )
            return UInt64(seq ?? 0)
        }
    }

    /// The BLAKE2b-256 of the envelope of `author`'s delta `seq`, if this replica holds it.
    public func deltaHash(of author: AuthorID, seq: UInt64) throws(ReplicaError) -> [UInt8]? {
        try read { db in
            try Data.fetchOne(
                db,
                sql: "SELECT hash FROM delta WHERE author = ? AND seq = ?",
                arguments: [Data(author.bytes), Int64(clamping: seq)]
            ).map { Array($0) }
        }
    }
}
