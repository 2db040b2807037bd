/// Who is inside, per zone and venue-wide, for the locked campaign: what `muster status` and
/// `muster occupancy` show. Counts follow the replica: on a partitioned kiosk they are what it has
/// seen, and they agree everywhere once the kiosks have exchanged their deltas.
public struct Occupancy: Sendable, Equatable, Encodable {
    public let campaignID: String?
    public let campaignName: String?
    /// Every zone of the plan (inside 0 included), then every other location with someone inside.
    public let zones: [ZoneOccupancy]
    /// Distinct attendees inside anywhere (one person in two halls counts once).
    public let inside: Int
    /// The sum of the zone capacities when every zone of the plan has one, else nil.
    public let capacity: Int?

    /// Memberwise, for the stores that build it from their rows.
    package init(campaignID: String?, campaignName: String?, zones: [ZoneOccupancy], inside: Int, capacity: Int?) {
        self.campaignID = campaignID
        self.campaignName = campaignName
        self.zones = zones
        self.inside = inside
        self.capacity = capacity
    }
}
