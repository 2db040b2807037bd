/// How full one zone is, on this replica.
public struct ZoneOccupancy: Sendable, Equatable, Encodable {
    public let zone: String
    public let inside: Int
    /// nil: no capacity (or no zone plan).
    public let capacity: Int?

    /// Places over capacity (0 when within it or uncapped): what the capacity race leaves behind.
    public var over: Int { capacity.map { max(0, inside - $0) } ?? 0 }

    /// Memberwise, for the stores that build it from their rows.
    package init(zone: String, inside: Int, capacity: Int?) {
        self.zone = zone
        self.inside = inside
        self.capacity = capacity
    }
}
