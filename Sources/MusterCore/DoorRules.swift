/// The organizer's door rules, carried by the lock: the zone plan and the venue's entry rules.
///
/// They travel inside the lock (not in a delta of their own) so that the campaign, its window and
/// its rules change together: a kiosk never enforces the rules of one lock on the campaign of
/// another. Every kiosk decides from its own replica, so the rules hold while it is offline.
public struct DoorRules: ByteCodable, Sendable, Equatable {
    /// The encoding's version, written before the rules in a lock.
    public static let encodingVersion: UInt8 = 1
    /// Most zones in one plan; a venue with more doors than this is not a venue.
    public static let maxZones = 64

    public var zones: [ZoneRule]
    /// Entries per attendee per zone.
    public var entries: EntryLimit
    /// Whether an attendee who checked out of a zone may enter it again.
    public var reEntry: Bool

    public init(zones: [ZoneRule] = [], entries: EntryLimit = .unlimited, reEntry: Bool = true) {
        self.zones = zones
        self.entries = entries
        self.reEntry = reEntry
    }

    /// The plan's rule for `zone`, if it names it (exact name, as on the certificates).
    public func zone(named zone: String) -> ZoneRule? {
        zones.first { $0.name == zone }
    }

    public func encode(into writer: inout ByteWriter) {
        writer.writeList(zones)
        writer.write(entries, reEntry)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let count = try reader.readCount(in: 0...Self.maxZones, "a plan names at most \(Self.maxZones) zones")
        var zones: [ZoneRule] = []
        for _ in 0..<count {
            let offset = reader.offset
            let zone = try ZoneRule(from: &reader)
            // One rule per zone, so no replica has to pick between two.
            guard !zones.contains(where: { $0.name == zone.name }) else {
                throw .invalidValue(at: offset, "zone named twice")
            }
            zones.append(zone)
        }
        self.init(zones: zones, entries: try reader.read(), reEntry: try reader.read())
    }
}
