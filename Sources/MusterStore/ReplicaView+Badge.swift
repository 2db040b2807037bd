import Foundation
import GRDB
import MusterCore
public import MusterRules

extension ReplicaView {
    /// Every badge printed for one attendee in a campaign, on any kiosk, oldest first by
    /// (hlc, author, seq). Empty means the self-service screen may print one; anything else means
    /// the attendee is sent to staff, who may reprint.
    public func badges(campaignID: String, attendeeKey: String) throws -> [BadgeRecord] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT b.author, b.seq, b.hlc, b.reason, COALESCE(r.name, '') AS kiosk_name,
                        COALESCE(r.location, '') AS location
                    FROM badge b LEFT JOIN roster r ON r.kiosk = b.author
                    WHERE b.campaign_id = ? AND b.attendee_key = ?
                    ORDER BY b.hlc, b.author, b.seq
                    """
            ),
            arguments: [campaignID, attendeeKey]
        ).compactMap { row in
            let author: Data = row["author"]
            let seq: Int64 = row["seq"]
            let hlc: Int64 = row["hlc"]
            let reason: Int64 = row["reason"]
            guard let authorID = AuthorID(bytes: author),
                let reason = BadgePayload.Reason(rawValue: UInt8(clamping: reason))
            else { return nil }
            return BadgeRecord(
                ref: DeltaRef(author: authorID, seq: UInt64(seq)),
                hlc: HLC(packed: UInt64(hlc)),
                reason: reason,
                kioskName: row["kiosk_name"],
                location: row["location"]
            )
        }
    }
}

extension ReplicaView {
    /// A campaign's display name by id (what the badge prints as the event), nil if unknown.
    public func campaignName(id: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM campaign WHERE id = ?"), arguments: [id])
    }
}
