/// The organizer's door rules, carried by the lock: the zone plan and the venue's entry rules.
///
/// They travel inside the lock (not in a delta of their own) so that the campaign, its window and
/// its rules change together: a kiosk never enforces the rules of one lock on the campaign of
/// another. Every kiosk decides from its own replica, so the rules hold while it is offline.
public struct DoorRules: ByteCodable, Sendable, Equatable {
    /// The encoding versions this code reads, written first: 1 is the rules without door lists (every
    /// lock signed before them keeps its bytes), 2 adds the escrow zones' door lists
    /// (``ZoneRule/doors``) after the rules, 3 adds the ticket types each zone admits
    /// (``ZoneRule/types``) after those. A kiosk that reads only version 1 refuses a version 2 lock
    /// as an unsupported version rather than split a zone's places over the doors its own roster
    /// holds, and one that reads up to 2 refuses a version 3 lock rather than admit any ticket at a
    /// VIP door: `muster lock` signs a version only once every kiosk says it reads it.
    public static let encodingVersions: ClosedRange<UInt8> = 1...3
    /// The version these rules are written in: the lowest that holds them.
    public var encodingVersion: UInt8 {
        if zones.contains(where: { $0.types != nil || $0.addons != nil }) { return 3 }
        return zones.contains { $0.doors != nil } ? 2 : 1
    }
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
        writer.write(encodingVersion)
        writer.writeList(zones)
        writer.write(entries, reEntry)
        guard encodingVersion >= 2 else { return }
        for zone in zones {
            writer.write(zone.doors != nil)
            if let doors = zone.doors { writer.writeList(doors) }
        }
        guard encodingVersion >= 3 else { return }
        for zone in zones {
            writer.write(zone.types != nil)
            if let types = zone.types { writer.writeList(types) }
        }
        for zone in zones {
            writer.write(zone.addons != nil)
            if let addons = zone.addons { writer.writeList(addons) }
        }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        try self.init(version: try reader.readUInt8(), from: &reader)
    }

    /// The rules after their version byte (a lock reads the byte first, to tell rules from its
    /// other tail items).
    init(version: UInt8, from reader: inout ByteReader) throws(DecodeError) {
        guard Self.encodingVersions.contains(version) else { throw .unsupportedVersion(version) }
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
        guard version >= 2 else { return }
        let start = reader.offset
        for index in self.zones.indices {
            guard try reader.readBool() else { continue }
            let offset = reader.offset
            let doors: [AuthorID] = try reader.readList(
                in: 0...ZoneRule.maxDoors,
                "a zone lists at most \(ZoneRule.maxDoors) doors"
            )
            // One encoding per lock: door lists on escrow zones only, each key once, ascending.
            guard self.zones[index].escrow else { throw .invalidValue(at: offset, "only an escrow zone lists doors") }
            guard zip(doors, doors.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw .invalidValue(at: offset, "a zone's doors are listed once each, ascending")
            }
            self.zones[index].doors = doors
        }
        if version == 3 { try readTypes(from: &reader) }
        // One encoding per rules: the lowest version that holds them.
        guard encodingVersion == version else {
            throw .invalidValue(at: start, "version \(version) rules hold what only that version can")
        }
    }

    /// Version 3's sections: per zone, the ticket types it admits, then the add-ons only its desks
    /// hand out.
    private mutating func readTypes(from reader: inout ByteReader) throws(DecodeError) {
        for index in zones.indices {
            zones[index].types = try Self.readNames(
                &reader,
                ZoneRule.maxTypes,
                AttendeeDetails.maxTypeBytes,
                "ticket types"
            )
        }
        for index in zones.indices {
            zones[index].addons = try Self.readNames(
                &reader,
                ZoneRule.maxTypes,
                AttendeeDetails.maxAddonBytes,
                "add-ons"
            )
        }
    }

    /// A flag, then (when set) 1 to `most` names, each once without case, none empty or over `bytes`.
    private static func readNames(
        _ reader: inout ByteReader,
        _ most: Int,
        _ bytes: Int,
        _ what: String
    ) throws(DecodeError) -> [String]? {
        guard try reader.readBool() else { return nil }
        let offset = reader.offset
        let names: [String] = try reader.readList(in: 1...most, "a zone names 1 to \(most) \(what)")
        guard names.allSatisfy({ !$0.isEmpty && $0.utf8.count <= bytes }),
            Set(names.map { $0.lowercased() }).count == names.count
        else { throw .invalidValue(at: offset, "a zone names each of its \(what) once, none empty") }
        return names
    }
}
