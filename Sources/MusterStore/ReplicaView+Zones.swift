import Foundation
import GRDB
public import MusterCore
public import MusterRules

extension ReplicaView {
    /// Attendees inside `zone` now: those with an open arrival at a kiosk whose certificate names
    /// that location (the door's capacity check).
    public func insideCount(campaignID: String, zone: String) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: "SELECT COUNT(DISTINCT attendee_key) FROM open_arrival WHERE campaign_id = ? AND location = ?"
            ),
            arguments: [campaignID, zone]
        ) ?? 0
    }

    /// Attendees inside each zone that has anyone inside (organizer views).
    public func insideByZone(campaignID: String) throws -> [String: Int] {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT location, COUNT(DISTINCT attendee_key) AS inside FROM open_arrival
                    WHERE campaign_id = ? GROUP BY location
                    """
            ),
            arguments: [campaignID]
        )
        var counts: [String: Int] = [:]
        for row in rows { counts[row["location"]] = row["inside"] }
        return counts
    }

    /// What the door rules need of a zone's occupancy, read only where the lock's rules use it.
    /// Counting who is inside scans the zone's open arrivals (about 40 ms at 10,000 check-ins), and
    /// without a capacity on the zone no rule reads the count: a 50-kiosk burst, whose lock has no
    /// zones, spent most of its CPU counting on every check-in (743fee6; BENCHMARKS.md, "What each
    /// optimisation gained").
    public func occupancy(
        lock: LockState?,
        campaignID: String?,
        zone: String,
        kiosk: AuthorID
    ) throws -> (inside: Int, escrow: DoorAttempt.Escrow?) {
        guard let campaignID, let rule = lock?.rules?.zone(named: zone), rule.capacity != nil else { return (0, nil) }
        let inside = try insideCount(campaignID: campaignID, zone: zone)
        return (inside, rule.escrow ? try escrow(campaignID: campaignID, zone: rule, kiosk: kiosk) : nil)
    }

    /// What an escrow zone needs to know about `kiosk`'s share: its own arrivals inside `zone`, the
    /// doors the lock splits the capacity over (``ZoneRule/doors``) and `kiosk`'s rank among them.
    /// A lock signed before door lists splits over the enrolled kiosks whose certificate names the
    /// zone, as this replica's roster holds them, and gives a kiosk it does not know the last rank.
    public func escrow(campaignID: String, zone rule: ZoneRule, kiosk: AuthorID) throws -> DoorAttempt.Escrow {
        let zone = rule.name
        let own =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(DISTINCT attendee_key) FROM open_arrival
                        WHERE campaign_id = ? AND location = ? AND author = ?
                        """
                ),
                arguments: [campaignID, zone, Data(kiosk.bytes)]
            ) ?? 0
        if let doors = rule.doors {
            return DoorAttempt.Escrow(ownInside: own, kiosks: doors.count, rank: doors.firstIndex(of: kiosk))
        }
        let kiosks = try Data.fetchAll(
            db.cachedStatement(sql: "SELECT kiosk FROM roster WHERE location = ? ORDER BY kiosk"),
            arguments: [zone]
        )
        let rank = kiosks.firstIndex(of: Data(kiosk.bytes)) ?? kiosks.count
        return DoorAttempt.Escrow(ownInside: own, kiosks: max(kiosks.count, 1), rank: rank)
    }

    /// What ``DoorPolicy`` needs to know about one attendee.
    public func doorAttendee(_ record: AttendeeRecord) throws -> DoorAttempt.Attendee {
        DoorAttempt.Attendee(
            key: record.key,
            admitted: record.admitted,
            arrivals: record.arrivals,
            openArrivals: record.openArrivals,
            details: record.details
        )
    }
}
