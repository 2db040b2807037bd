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
                sql: Self.badgeSQL + " WHERE b.campaign_id = ? AND b.attendee_key = ? " + Self.badgeOrder
            ),
            arguments: [campaignID, attendeeKey]
        ).compactMap(Self.badge)
    }

    /// Every self-service badge of a campaign, with its attendee, in one read (``conflicts(campaignID:)``).
    func selfServiceBadges(campaignID: String) throws -> [Conflicts.Badge] {
        try Row.fetchAll(
            db.cachedStatement(sql: Self.badgeSQL + " WHERE b.campaign_id = ? AND b.reason = ? " + Self.badgeOrder),
            arguments: [campaignID, Int64(BadgePayload.Reason.selfService.rawValue)]
        ).compactMap { row in Self.badge(row).map { Conflicts.Badge(attendeeKey: row["attendee_key"], record: $0) } }
    }

    /// A badge row with its kiosk's name and location from the roster.
    static let badgeSQL = """
        SELECT b.author, b.seq, b.hlc, b.reason, b.attendee_key, COALESCE(r.name, '') AS kiosk_name,
            COALESCE(r.location, '') AS location
        FROM badge b LEFT JOIN roster r ON r.kiosk = b.author
        """
    static let badgeOrder = "ORDER BY b.hlc, b.author, b.seq"

    static func badge(_ row: Row) -> BadgeRecord? {
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

extension ReplicaView {
    /// A campaign's display name by id (what the badge prints as the event), nil if unknown.
    public func campaignName(id: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM campaign WHERE id = ?"), arguments: [id])
    }
}
