import GRDB
import MusterCore
public import MusterRules

extension Replica {
    /// Inside / capacity per zone and venue-wide for the locked campaign (empty when unlocked).
    public func occupancy() throws(ReplicaError) -> Occupancy {
        try read { db in
            let view = ReplicaView(db)
            let lock = try view.lock()
            guard let campaignID = lock?.campaignID else {
                return Occupancy(campaignID: nil, campaignName: nil, zones: [], inside: 0, capacity: nil)
            }
            let counts = try view.insideByZone(campaignID: campaignID)
            let plan = lock?.rules?.zones ?? []
            var zones = plan.map { zone in
                ZoneOccupancy(zone: zone.name, inside: counts[zone.name] ?? 0, capacity: zone.capacity.map { Int($0) })
            }
            for (zone, inside) in counts.sorted(by: { $0.key < $1.key })
            where !plan.contains(where: { $0.name == zone }) {
                zones.append(ZoneOccupancy(zone: zone, inside: inside, capacity: nil))
            }
            let inside =
                try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(DISTINCT attendee_key) FROM open_arrival WHERE campaign_id = ?",
                    arguments: [campaignID]
                ) ?? 0
            let capacities = plan.compactMap(\.capacity)
            let capacity = !plan.isEmpty && capacities.count == plan.count ? capacities.reduce(0) { $0 + Int($1) } : nil
            return Occupancy(
                campaignID: campaignID,
                campaignName: lock?.campaignName,
                zones: zones,
                inside: inside,
                capacity: capacity
            )
        }
    }
}
