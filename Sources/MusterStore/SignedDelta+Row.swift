import Foundation
import GRDB
import MusterCore
import MusterCrypto
public import MusterRules

extension SignedDelta {
    /// A stored delta (or certificate, or revocation evidence) read back from a row with
    /// `envelope` and `signature` columns.
    init(row: Row) throws {
        let envelope: Data = row["envelope"]
        let signature: Data = row["signature"]
        try self.init(envelope: Array(envelope), signature: Array(signature))
    }

    /// The BLAKE2b-256 of the envelope: the hash the next delta of its chain names. The log does not
    /// store it (32 bytes a delta); it is computed where it is read, a microsecond a delta.
    var envelopeHash: [UInt8] { Blake2b.hash256(envelope) }
}

extension Replica {
    /// The hash of `author`'s delta `seq`, if the log holds it.
    static func heldHash(_ author: AuthorID, seq: UInt64, db: Database) throws -> [UInt8]? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT envelope, signature FROM delta WHERE author = ? AND seq = ?"),
            arguments: [Data(author.bytes), Int64(clamping: seq)]
        ).map { try SignedDelta(row: $0).envelopeHash }
    }
}
