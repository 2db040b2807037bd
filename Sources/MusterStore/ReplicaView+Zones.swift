import Foundation
import GRDB
import MusterCore

extension ReplicaView {
    /// Attendees inside `zone` now: those with an open arrival at a kiosk whose certificate names
    /// that location (the door's capacity check).
    public func insideCount(campaignID: String, zone: String) throws -> Int {
        try Int.fetchOne(
            db,
            sql: "SELECT COUNT(DISTINCT attendee_key) FROM open_arrival WHERE campaign_id = ? AND location = ?",
            arguments: [campaignID, zone]
        ) ?? 0
    }

    /// Attendees inside each zone that has anyone inside (organizer views).
    public func insideByZone(campaignID: String) throws -> [String: Int] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT location, COUNT(DISTINCT attendee_key) AS inside FROM open_arrival
                WHERE campaign_id = ? GROUP BY location
                """,
            arguments: [campaignID]
        )
        var counts: [String: Int] = [:]
        for row in rows { counts[row["location"]] = row["inside"] }
        return counts
    }

    /// What ``DoorPolicy`` needs to know about one attendee.
    public func doorAttendee(_ record: AttendeeRecord) throws -> DoorAttempt.Attendee {
        DoorAttempt.Attendee(
            key: record.key,
            admitted: record.admitted,
            arrivals: try presences(campaignID: record.campaignID, attendeeKey: record.key).filter(\.isArrival),
            openArrivals: record.openArrivals
        )
    }
}
