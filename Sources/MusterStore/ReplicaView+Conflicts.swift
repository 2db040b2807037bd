import Foundation
import GRDB
import MusterCore
public import MusterRules

extension ReplicaView {
    /// What partitions let through twice in one campaign (``Conflicts``), oldest first: its live
    /// presences and printed badges replayed under the lock's door rules (none when the lock names
    /// another campaign or none).
    /// The start of the local calendar day of `millis`, as the door counts `--entries N` a day.
    public static func localDayStart(_ millis: UInt64) -> Int64 {
        let date = Date(timeIntervalSince1970: Double(millis) / 1000)
        return Int64(Calendar.current.startOfDay(for: date).timeIntervalSince1970 * 1000)
    }

    public func conflicts(campaignID: String) throws -> [Conflict] {
        let lock = try lock()
        let rules = lock?.campaignID == campaignID ? lock?.rules : nil
        let presences = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT \(Self.presenceColumns), attendee_key FROM live_presence WHERE campaign_id = ?"
            ),
            arguments: [campaignID]
        ).compactMap { row in
            Self.presence(row).map { Conflicts.Presence(attendeeKey: row[8], record: $0) }
        }
        return Conflicts.find(
            presences: presences,
            badges: try selfServiceBadges(campaignID: campaignID),
            redemptions: try keyedRedemptions(campaignID: campaignID),
            rules: rules,
            dayStart: Self.localDayStart
        )
    }
}
