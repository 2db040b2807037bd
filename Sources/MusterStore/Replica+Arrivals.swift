import GRDB
import MusterCore
public import MusterRules

extension Replica {
    /// When each live arrival (check-in or walk-in registration, not undone) of a campaign
    /// happened, and in which zone (the kiosk's certificate location), oldest first: the data of
    /// the arrivals chart.
    public func arrivals(
        campaignID: String,
        zone: String? = nil
    ) throws(ReplicaError) -> [(atMillis: Int64, zone: String)] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT hlc, location FROM live_presence
                    WHERE campaign_id = ?1 AND kind != ?2 AND (?3 IS NULL OR location = ?3)
                    ORDER BY hlc, author, seq
                    """,
                arguments: [campaignID, Int64(DeltaKind.checkOut.rawValue), zone]
            ).map { row in
                let hlc: Int64 = row["hlc"]
                return (Int64(clamping: HLC(packed: UInt64(bitPattern: hlc)).physicalMillis), row["location"])
            }
        }
    }
}
