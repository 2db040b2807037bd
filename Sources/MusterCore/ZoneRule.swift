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
    /// to the capacity, so the zone is never over capacity, even while kiosks are partitioned; the
    /// price is that a busy door can refuse while a quiet one still holds places.
    public var escrow: Bool

    public init(
        name: String,
        capacity: UInt32? = nil,
        exclusive: Bool = false,
        opensAtMillis: Int64? = nil,
        closesAtMillis: Int64? = nil,
        escrow: Bool = false
    ) {
        self.name = name
        self.capacity = capacity
        self.exclusive = exclusive
        self.opensAtMillis = opensAtMillis
        self.closesAtMillis = closesAtMillis
        self.escrow = escrow
    }

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
