import GRDB
import MusterCore
public import MusterRules

extension ReplicaView {
    /// Everyone of `record`'s order (issue 35), `record` included, by key; just `record` when the list
    /// gave it no order.
    public func party(of record: AttendeeRecord) throws -> [AttendeeRecord] {
        guard let order = record.details?.order else { return [record] }
        return try party(campaignID: record.campaignID, orderCode: order)
    }

    /// Everyone of the order with code `orderCode` (compared as ticket codes are), by key.
    public func party(campaignID: String, orderCode: String) throws -> [AttendeeRecord] {
        let keys = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT key FROM attendee WHERE campaign = (SELECT n FROM campaign_number WHERE id = ?)
                        AND order_key = ? ORDER BY key
                    """
            ),
            arguments: [campaignID, TicketCode.normalize(orderCode)]
        )
        return try keys.compactMap { try attendee(campaignID: campaignID, key: $0) }
    }

    /// How many others of `record`'s order are admitted and not inside `zone` (the venue, without door
    /// rules): whom a door offers to check in with them. 0 without an order.
    public func partyWaiting(for record: AttendeeRecord, zone: String, rules: DoorRules?) throws -> Int {
        guard record.details?.order != nil else { return 0 }
        return try party(of: record).filter { member in
            member.key != record.key && member.admitted
                && !member.openArrivals.contains { rules == nil || $0.location == zone }
        }.count
    }
}
