import Foundation
import GRDB
public import MusterCore
public import MusterRules

extension Replica {
    /// What of `me`'s own chain no other kiosk is known to hold (``SavedHereOnly``): the records past
    /// ``heldElsewhere()``, and of them the check-ins, check-outs and registrations.
    public func savedHereOnly(me: AuthorID) throws(ReplicaError) -> SavedHereOnly {
        let held = Int64(clamping: try heldElsewhere())
        let author = Data(me.bytes)
        return try read { db in
            let head = try Int64.fetchOne(db, sql: "SELECT seq FROM head WHERE author = ?", arguments: [author]) ?? 0
            let row = try Row.fetchOne(
                db,
                sql: "SELECT COUNT(*) AS n, MIN(hlc) AS oldest FROM presence WHERE author = ? AND seq > ?",
                arguments: [author, held]
            )
            let oldest: Int64? = row?["oldest"]
            return SavedHereOnly(
                checkIns: row?["n"] ?? 0,
                records: Int(max(0, head - held)),
                oldestMillis: oldest.map { HLC(packed: UInt64($0)).physicalMillis }
            )
        }
    }
}
