/// One zone of the organizer's plan. A zone is a kiosk's `location` (from its enrollment
/// certificate), so the kiosks at a door need no other configuration to know where they stand.
public struct ZoneRule: ByteCodable, Sendable, Equatable {
    /// Longest zone name in bytes (the same bound as a kiosk's location).
    public static let maxNameBytes = 256

    /// The location named on the certificates of the kiosks at this zone's doors.
    public var name: String
    /// Most attendees inside at once; nil means no limit.
    public var capacity: UInt32?
    /// Entering this zone ends presence in every other zone (a separate building); a hall inside
    /// a venue is not exclusive, so an attendee can be in the venue and in the hall at once.
    public var exclusive: Bool
    /// Unix milliseconds; nil means no bound. Narrows the lock's own window, never widens it.
    public var opensAtMillis: Int64?
    public var closesAtMillis: Int64?
    /// Splits the capacity among the zone's kiosks (escrow): each door admits only up to its own
    /// share of the places, counted by the arrivals it wrote that are still inside. The shares add up
    /// to the capacity, so the zone is never over capacity, even while kiosks are partitioned, as
    /// long as every door splits over the same doors (``doors``); the price is that a busy door can
    /// refuse while a quiet one still holds places.
    public var escrow: Bool
    /// For an escrow zone: the kiosks the capacity is split over, ascending by key, as the organizer's
    /// roster placed them in the zone when the lock was signed. Signed into the lock so that every
    /// door splits over the same doors: when each door counted the kiosks its own roster placed in
    /// the zone, a door enrolled while another was cut off made the two sides split over different
    /// sets, and a zone of 10 held 11 or 12 after the heal (issue 32). A door not named has no share
    /// until a newer lock names it. nil: a lock signed before door lists (the roster's kiosks, as
    /// then), or a zone without escrow.
    public var doors: [AuthorID]?
    /// The ticket types this zone admits (issue 35: a VIP lounge, a speakers' room); nil admits every
    /// ticket. Signed into the lock's version 3 rules (``DoorRules``), after the door lists.
    public var types: [String]?
    /// The add-ons only this zone's desks hand out (issue 35): a double then needs a partition inside
    /// this zone. nil: none. Signed into version 3 rules after the types.
    public var addons: [String]?

    /// Most ticket types one zone names.
    public static let maxTypes = 32

    /// Most doors one zone lists; with 64 zones a lock still fits in a delta body only if few list
    /// this many, which `muster lock` checks when it signs.
    public static let maxDoors = 64

    public init(
        name: String,
        capacity: UInt32? = nil,
        exclusive: Bool = false,
        opensAtMillis: Int64? = nil,
        closesAtMillis: Int64? = nil,
        escrow: Bool = false,
        doors: [AuthorID]? = nil,
        types: [String]? = nil,
        addons: [String]? = nil
    ) {
        self.name = name
        self.capacity = capacity
        self.exclusive = exclusive
        self.opensAtMillis = opensAtMillis
        self.closesAtMillis = closesAtMillis
        self.escrow = escrow
        self.doors = doors
        self.types = types
        self.addons = addons
    }

    /// Whether this zone admits a ticket of `ticketType` (nil: the list gave none). A zone without
    /// types admits every ticket; one with types admits a ticket whose type is one of them, compared
    /// without case, or a variation of one (pretix's "VIP – Friday" is a VIP ticket), and never a
    /// ticket without a type.
    public func admits(ticketType: String?) -> Bool {
        guard let types else { return true }
        guard let ticketType else { return false }
        let ticket = ticketType.lowercased()
        return types.contains { type in
            let type = type.lowercased()
            return ticket == type || ticket.hasPrefix(type + " – ")
        }
    }

    /// The fields of the first rules version; ``DoorRules`` writes door lists after all zones
    /// (version 2), so a zone without one keeps these bytes.
    public func encode(into writer: inout ByteWriter) {
        writer.write(name, capacity.map { Int64($0) }, exclusive, opensAtMillis, closesAtMillis, escrow)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let offset = reader.offset
        let name = try reader.readString(maxLength: Self.maxNameBytes)
        guard !name.isEmpty else { throw .invalidValue(at: offset, "a zone needs a name") }
        let capacityOffset = reader.offset
        let capacity = try reader.read(Int64?.self)
        guard capacity.map({ UInt32(exactly: $0) != nil }) ?? true else {
            throw .invalidValue(at: capacityOffset, "zone capacity out of range")
        }
        self.init(
            name: name,
            capacity: capacity.map { UInt32($0) },
            exclusive: try reader.read(),
            opensAtMillis: try reader.read(),
            closesAtMillis: try reader.read(),
            escrow: try reader.read()
        )
    }
}
