/// A check-in or a check-out of one attendee at one kiosk. Kiosk-authored.
///
/// Check-ins are a grow-only set per (campaign, attendee); the one shown is the earliest by
/// (hlc, author). Kiosk name and location are copied in so the log export and "already checked in
/// at Hall A" need nothing else.
public struct PresencePayload: ByteCodable, Sendable, Equatable {
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
        writer.write(campaignID, attendeeKey, kioskName, location, memberStatus)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        self.init(
            campaignID: try reader.readString(maxLength: Limits.maxCampaignIDBytes),
            attendeeKey: try reader.read(),
            kioskName: try reader.readString(maxLength: 256),
            location: try reader.readString(maxLength: 256),
            memberStatus: try reader.readString(maxLength: 128)
        )
    }
}
