import MusterCore
import MusterRules
import MusterStore

/// Doors runs (``SimOptions/doors``): check-ins judged at their door by the rule musterd runs.
extension Simulation {
    /// The lock's rules: one entry per attendee for the whole event, in the venue's one zone.
    static let doorRules = DoorRules(entries: .once)

    /// Every attendee comes to two doors: workload check-ins `2n` and `2n + 1` are attendee `n`.
    static func doorAttendees(_ options: SimOptions) -> Int { (options.checkIns + 1) / 2 }

    static func doorQuery(item: Int) -> String { SimVenue.attendee(item / 2).email }

    /// Workload item `item` scanned at `kiosk`'s door: judged and recorded in one transaction of its
    /// replica (``MusterStore/ReplicaView/judgeScan(_:at:nowMillis:dayStartMillis:)``), as musterd's
    /// `checkIn` does; an admission is noted for the checker, with whether the door held an earlier
    /// admission of the same attendee (which it must have refused).
    func doorScan(at kiosk: SimKiosk, item: Int, wall: UInt64) throws -> SignedDelta {
        guard let store = kiosk.store as? ReplicaStore else {
            throw SimError("k\(kiosk.index + 1): doors need the real replica")
        }
        let query = Self.doorQuery(item: item)
        let earlier = admissions[query] ?? []
        let heard = try earlier.contains { try store.holds($0) }
        let door = DoorScan.Door(kiosk: kiosk.id, name: "k\(kiosk.index + 1)", zone: "Hall")
        let (delta, admitted) = try store.appendScan(
            query,
            at: door,
            keyPair: kiosk.key,
            nowMillis: wall,
            dayStartMillis: Conflicts.utcDayStart(wall)
        ) { _ in kiosk.clock.tick(nowMillis: wall) }
        if admitted {
            if heard { admittedAfterHearing += 1 }
            admissions[query, default: []].append(delta.ref)
        }
        return delta
    }

    /// Each live kiosk's conflicts report, for the checker (nil outside doors runs).
    func conflictReports() throws(SimError) -> [String: [Conflict]]? {
        guard options.doors else { return nil }
        var reports: [String: [Conflict]] = [:]
        for kiosk in kiosks where kiosk.up {
            guard let store = kiosk.store as? ReplicaStore else { continue }
            do {
                reports["k\(kiosk.index + 1)"] = try store.view {
                    try $0.conflicts(campaignID: SimVenue.campaign)
                }
            } catch {
                throw SimError("cannot read k\(kiosk.index + 1)'s conflicts", cause: error)
            }
        }
        return reports
    }
}
