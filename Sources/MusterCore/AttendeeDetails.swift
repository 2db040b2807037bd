/// What a real event's list says of a ticket beyond who holds it (issue 35): its type, its order,
/// its add-ons, whether staff must see the person, and when it is valid. The door decides by it
/// offline (``DoorRules`` admit by type, a ticket is refused outside its validity, an attention
/// ticket needs staff), so it travels inside the attendee delta, signed with the rest of the row.
///
/// It is the optional tail of ``AttendeePayload``, introduced by its own tag and version byte: an
/// attendee without details encodes exactly as before, so no signature or digest of an older import
/// changes. A kiosk older than this encoding refuses an attendee that carries details (trailing
/// bytes) rather than admit a VIP-only ticket anywhere; `muster import` therefore refuses to send
/// details while an enrolled kiosk says it cannot read them (``feature``).
public struct AttendeeDetails: ByteCodable, Sendable, Equatable {
    /// The encoding this code writes and reads, after ``AttendeePayload/detailsTag``.
    public static let encodingVersion: UInt8 = 1
    /// The name a kiosk's status lists when it reads details (``KioskStatus``).
    public static let feature = "attendee-details-v\(encodingVersion)"
    public static let maxTypeBytes = 128
    public static let maxOrderBytes = 64
    public static let maxAddons = 32
    public static let maxAddonBytes = 128
    public static let maxAttentionTextBytes = 1000

    /// The product or ticket type ("VIP", "Workshop day – Friday"): what a zone admits by.
    public var ticketType: String?
    /// The order (pretix order code, Eventbrite `Order #`): the party a ticket was bought with.
    public var order: String?
    /// The add-ons bought with the ticket ("T-shirt", "Dinner"), each handed out once.
    public var addons: [String]
    /// The ticket needs a person's eye (an ID or age check, a VIP to greet): a self-service door
    /// sends the attendee to staff and never shows ``attentionText``.
    public var attention: Bool
    /// What staff should know; only ever shown to staff.
    public var attentionText: String?
    /// Unix milliseconds; the ticket admits from this instant on (nil: no bound).
    public var validFromMillis: Int64?
    /// Unix milliseconds; the ticket admits until before this instant (nil: no bound).
    public var validUntilMillis: Int64?

    public init(
        ticketType: String? = nil,
        order: String? = nil,
        addons: [String] = [],
        attention: Bool = false,
        attentionText: String? = nil,
        validFromMillis: Int64? = nil,
        validUntilMillis: Int64? = nil
    ) {
        self.ticketType = ticketType
        self.order = order
        self.addons = addons
        self.attention = attention
        self.attentionText = attentionText
        self.validFromMillis = validFromMillis
        self.validUntilMillis = validUntilMillis
    }

    /// Nothing to say: such details are not written at all (an attendee encodes as before), so
    /// nothing has two encodings.
    public var isEmpty: Bool { self == AttendeeDetails() }

    /// Whether the ticket admits at `millis`: inside [validFrom, validUntil).
    public func isValid(atMillis millis: Int64) -> Bool {
        if let validFromMillis, millis < validFromMillis { return false }
        if let validUntilMillis, millis >= validUntilMillis { return false }
        return true
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.encodingVersion)
        writer.write(ticketType, order)
        writer.writeList(addons)
        writer.write(attention, attentionText, validFromMillis, validUntilMillis)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let version = try reader.readUInt8()
        guard version == Self.encodingVersion else { throw .unsupportedVersion(version) }
        let start = reader.offset
        let ticketType = try reader.readOptionalString(maxLength: Self.maxTypeBytes)
        let order = try reader.readOptionalString(maxLength: Self.maxOrderBytes)
        let addonCount = try reader.readCount(in: 0...Self.maxAddons, "a ticket has at most \(Self.maxAddons) add-ons")
        var addons: [String] = []
        for _ in 0..<addonCount {
            let offset = reader.offset
            let addon = try reader.readString(maxLength: Self.maxAddonBytes)
            // One encoding per set: each add-on once, none empty (a redemption names one).
            guard !addon.isEmpty, !addons.contains(addon) else {
                throw .invalidValue(at: offset, "an add-on is named once and not empty")
            }
            addons.append(addon)
        }
        self.init(
            ticketType: ticketType,
            order: order,
            addons: addons,
            attention: try reader.readBool(),
            attentionText: try reader.readOptionalString(maxLength: Self.maxAttentionTextBytes),
            validFromMillis: try reader.readOptionalInt64(),
            validUntilMillis: try reader.readOptionalInt64()
        )
        if let from = validFromMillis, let until = validUntilMillis, from >= until {
            throw .invalidValue(at: start, "a ticket's validity ends after it begins")
        }
        guard !isEmpty else { throw .invalidValue(at: start, "empty details are not written") }
    }
}
