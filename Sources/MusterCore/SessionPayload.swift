/// A session on the schedule (issue 36): a talk or workshop in one zone's room with its own times,
/// or a check-in spot a host opened on the spot with a six-digit code. Kind tag 16.
///
/// The organizer (or one of its devices) writes scheduled sessions; a kiosk writes only spots, in its
/// own zone, under an id of its own (``VenuePolicy/checkSession(_:author:location:)``), so no kiosk can
/// move, close or rename a session it did not open. A session is last-writer-wins by its id, and a
/// later version with ``removed`` set takes it off the schedule everywhere.
///
/// Times are Unix milliseconds: every kiosk of a venue judges "open now" by its own clock against the
/// same signed times, as it does a lock's window.
public struct SessionPayload: DeltaPayload {
    public static let kind = DeltaKind.session

    /// Longest session id, name and zone in bytes.
    public static let maxIDBytes = 64
    public static let maxNameBytes = 128
    /// The longest a spot stays open: a spot is for one meeting, not a day.
    public static let maxSpotMillis: Int64 = 4 * 3_600_000
    /// How a kiosk's spot ids begin: `spot-` and the first 16 hex digits of the kiosk's key.
    public static func spotPrefix(_ kiosk: AuthorID) -> String { "spot-" + String(kiosk.hex.prefix(16)) + "-" }

    public var id: String
    public var name: String
    /// The room: the location of the kiosks at its doors.
    public var zone: String
    public var startMillis: Int64
    public var endMillis: Int64
    /// Most attendees admitted, split over ``doors`` (each door admits its share, so the room is never
    /// over capacity even cut off); nil: no limit.
    public var capacity: UInt32?
    /// Only attendees registered for it (``SessionRegistrationPayload``) are admitted.
    public var registeredOnly: Bool
    /// How long before its start the doors admit to it.
    public var opensEarlyMillis: UInt32
    /// Arriving more than this after the start is "late"; leaving more than this before the end is "left early".
    public var lateAfterMillis: UInt32
    /// A spot's six digits; nil for a scheduled session.
    public var code: String?
    /// The kiosks the capacity is split over, signed in when the session is written (``ZoneDoors``).
    public var doors: [AuthorID]
    /// Taken off the schedule.
    public var removed: Bool

    public init(
        id: String,
        name: String,
        zone: String,
        startMillis: Int64,
        endMillis: Int64,
        capacity: UInt32? = nil,
        registeredOnly: Bool = false,
        opensEarlyMillis: UInt32 = 0,
        lateAfterMillis: UInt32 = 600_000,
        code: String? = nil,
        doors: [AuthorID] = [],
        removed: Bool = false
    ) {
        self.id = id
        self.name = name
        self.zone = zone
        self.startMillis = startMillis
        self.endMillis = endMillis
        self.capacity = capacity
        self.registeredOnly = registeredOnly
        self.opensEarlyMillis = opensEarlyMillis
        self.lateAfterMillis = lateAfterMillis
        self.code = code
        self.doors = doors
        self.removed = removed
    }

    /// Whether `code` is a spot code: exactly six ASCII digits.
    public static func isSpotCode(_ code: String) -> Bool {
        code.utf8.count == 6 && code.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(id, name, zone, startMillis, endMillis, capacity.map { Int64($0) }, registeredOnly)
        writer.writeVarint(UInt64(opensEarlyMillis))
        writer.writeVarint(UInt64(lateAfterMillis))
        writer.write(code)
        writer.writeList(doors)
        writer.write(removed)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let start = reader.offset
        let id = try reader.readString(maxLength: Self.maxIDBytes)
        let name = try reader.readString(maxLength: Self.maxNameBytes)
        let zone = try reader.readString(maxLength: ZoneRule.maxNameBytes)
        guard !id.isEmpty, !name.isEmpty, !zone.isEmpty else {
            throw .invalidValue(at: start, "a session needs an id, a name and a zone")
        }
        let timeOffset = reader.offset
        let startMillis = try reader.readInt64()
        let endMillis = try reader.readInt64()
        guard endMillis > startMillis else { throw .invalidValue(at: timeOffset, "a session ends after it starts") }
        let capacityOffset = reader.offset
        let capacity = try reader.read(Int64?.self)
        guard capacity.map({ UInt32(exactly: $0) != nil }) ?? true else {
            throw .invalidValue(at: capacityOffset, "session capacity out of range")
        }
        let registeredOnly = try reader.readBool()
        let marginOffset = reader.offset
        let opensEarly = try reader.readVarint()
        let lateAfter = try reader.readVarint()
        guard let opensEarly = UInt32(exactly: opensEarly), let lateAfter = UInt32(exactly: lateAfter) else {
            throw .invalidValue(at: marginOffset, "session margin out of range")
        }
        let codeOffset = reader.offset
        let code = try reader.readOptionalString(maxLength: 6)
        if let code, !Self.isSpotCode(code) {
            throw .invalidValue(at: codeOffset, "a spot code is six digits")
        }
        let doors: [AuthorID] = try reader.readList(in: 0...ZoneRule.maxDoors, "too many doors for one session")
        self.init(
            id: id,
            name: name,
            zone: zone,
            startMillis: startMillis,
            endMillis: endMillis,
            capacity: capacity.map { UInt32($0) },
            registeredOnly: registeredOnly,
            opensEarlyMillis: opensEarly,
            lateAfterMillis: lateAfter,
            code: code,
            doors: doors,
            removed: try reader.readBool()
        )
    }
}
