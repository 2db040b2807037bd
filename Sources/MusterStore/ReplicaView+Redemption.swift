import Foundation
import GRDB
public import MusterCore
public import MusterRules

extension ReplicaView {
    /// Every add-on handed out to one attendee in a campaign, on any desk, oldest first by
    /// (hlc, author, seq): what ``RedemptionPolicy`` reads.
    public func redemptions(campaignID: String, attendeeKey: String) throws -> [RedemptionRecord] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: Self.redemptionSQL + " WHERE d.campaign_id = ? AND d.attendee_key = ? " + Self.redemptionOrder
            ),
            arguments: [campaignID, attendeeKey]
        ).compactMap(Self.redemption)
    }

    /// Every redemption of a campaign, with its attendee, in one read (``conflicts(campaignID:)``).
    func keyedRedemptions(campaignID: String) throws -> [Conflicts.Redemption] {
        try Row.fetchAll(
            db.cachedStatement(sql: Self.redemptionSQL + " WHERE d.campaign_id = ? " + Self.redemptionOrder),
            arguments: [campaignID]
        ).compactMap { row in
            Self.redemption(row).map { Conflicts.Redemption(attendeeKey: row["attendee_key"], record: $0) }
        }
    }

    /// One add-on desk's answer to `query` (an email or ticket code) asking for `addon`, judged by
    /// ``RedemptionPolicy`` inside the caller's write transaction, with the delta to record when it
    /// is handed out.
    public func judgeRedemption(
        _ addon: String,
        for query: String,
        at zone: String
    ) throws -> (record: AttendeeRecord?, decision: RedemptionPolicy.Decision, body: DeltaBody?) {
        let lock = try lock()
        let record = try lock?.campaignID.flatMap { try lookup(campaignID: $0, query: query) }
        let held = try record.map { try redemptions(campaignID: $0.campaignID, attendeeKey: $0.key) } ?? []
        let decision = RedemptionPolicy.decide(
            lock: lock,
            attendee: record,
            addon: addon,
            zone: zone,
            redemptions: held
        )
        guard case .redeem(let bought) = decision, let record else { return (record, decision, nil) }
        let body = DeltaBody.redemption(
            RedemptionPayload(campaignID: record.campaignID, attendeeKey: record.key, addon: bought)
        )
        return (record, decision, body)
    }

    /// A redemption row with its desk's name and location from the roster.
    static let redemptionSQL = """
        SELECT d.author, d.seq, d.hlc, d.addon, d.attendee_key, COALESCE(r.name, '') AS kiosk_name,
            COALESCE(r.location, '') AS location
        FROM redemption d LEFT JOIN roster r ON r.kiosk = d.author
        """
    static let redemptionOrder = "ORDER BY d.hlc, d.author, d.seq"

    static func redemption(_ row: Row) -> RedemptionRecord? {
        let author: Data = row["author"]
        let seq: Int64 = row["seq"]
        let hlc: Int64 = row["hlc"]
        guard let authorID = AuthorID(bytes: author) else { return nil }
        return RedemptionRecord(
            ref: DeltaRef(author: authorID, seq: UInt64(seq)),
            hlc: HLC(packed: UInt64(hlc)),
            addon: row["addon"],
            kioskName: row["kiosk_name"],
            location: row["location"]
        )
    }
}
