import Foundation
import GRDB
import MusterCore
public import MusterRules

extension Replica {
    /// Every check-in, check-out and walk-in registration that was not undone, oldest first, with
    /// the attendee and any note they left (the `log` export).
    public func presenceLog(campaignID: String?) throws(ReplicaError) -> [PresenceLogEntry] {
        try read { db in
            let view = ReplicaView(db)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.*, c.name AS campaign_name
                    FROM (SELECT \(ReplicaView.presenceColumns), campaign_id, attendee_key FROM live_presence) p
                    LEFT JOIN campaign c ON c.id = p.campaign_id
                    WHERE ? IS NULL OR p.campaign_id = ? ORDER BY p.hlc, p.author, p.seq
                    """,
                arguments: [campaignID, campaignID]
            )
            return try rows.compactMap { row -> PresenceLogEntry? in
                guard let presence = ReplicaView.presence(row) else { return nil }
                let campaign: String = row[8]
                let key: String = row[9]
                let note = try String.fetchOne(
                    db,
                    sql: """
                        SELECT group_concat(text, ' / ') FROM (SELECT text FROM note
                        WHERE campaign_id = ? AND attendee_key = ? ORDER BY hlc, author, seq)
                        """,
                    arguments: [campaign, key]
                )
                return PresenceLogEntry(
                    presence: presence,
                    campaignName: row[10] ?? campaign,
                    attendee: try view.attendee(campaignID: campaign, key: key),
                    note: presence.isArrival ? note : nil
                )
            }
        }
    }
}
