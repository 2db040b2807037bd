/// A check-in or a check-out of one attendee at one kiosk. Kiosk-authored.
///
/// Check-ins are a grow-only set per (campaign, attendee); the one shown is the earliest by
/// (hlc, author). Kiosk name and location are copied in so the log export and "already checked in
/// at Hall A" need nothing else.
public struct PresencePayload: Sendable, Equatable {
    public var campaignID: String
    public var attendeeKey: String
    public var kioskName: String
    public var location: String
    /// The member status the lock asked for at the time (e.g. "Responded", "Attended").
    public var memberStatus: String

    public init(campaignID: String, attendeeKey: String, kioskName: String, location: String, memberStatus: String) {
        self.campaignID = campaignID
        self.attendeeKey = attendeeKey
        self.kioskName = kioskName
        self.location = location
        self.memberStatus = memberStatus
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID)
        writer.write(attendeeKey)
        writer.write(kioskName)
        writer.write(location)
        writer.write(memberStatus)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        campaignID = try reader.readString(maxLength: 64)
        attendeeKey = try reader.readString()
        kioskName = try reader.readString(maxLength: 256)
        location = try reader.readString(maxLength: 256)
        memberStatus = try reader.readString(maxLength: 128)
    }
}

/// A check-in (see ``PresencePayload``).
public struct CheckInPayload: DeltaPayload {
    public static let kind = DeltaKind.checkIn
    public var presence: PresencePayload
    public init(_ presence: PresencePayload) { self.presence = presence }
    public func encode(into writer: inout ByteWriter) { presence.encode(into: &writer) }
    public init(from reader: inout ByteReader) throws(DecodeError) { presence = try PresencePayload(from: &reader) }
}

/// A check-out (see ``PresencePayload``); someone is "inside" while their newest presence is a check-in.
public struct CheckOutPayload: DeltaPayload {
    public static let kind = DeltaKind.checkOut
    public var presence: PresencePayload
    public init(_ presence: PresencePayload) { self.presence = presence }
    public func encode(into writer: inout ByteWriter) { presence.encode(into: &writer) }
    public init(from reader: inout ByteReader) throws(DecodeError) { presence = try PresencePayload(from: &reader) }
}
