/// Attendees registered for a session (issue 36), kind tag 18, organizer only: what a
/// registered-only session admits and whom the attendance export lists as absent.
///
/// A grow-only set of (session, attendee key): a list too long for one delta is several deltas,
/// and deltas of one session add up whatever order they arrive in.
public struct SessionRegistrationPayload: DeltaPayload {
    public static let kind = DeltaKind.sessionRegistration
    /// Most attendees one delta registers (keys are at most a few dozen bytes; a body stays under
    /// ``Limits/maxBodyBytes``).
    public static let maxKeys = 200

    public var sessionID: String
    public var campaignID: String
    public var attendeeKeys: [String]

    public init(sessionID: String, campaignID: String, attendeeKeys: [String]) {
        self.sessionID = sessionID
        self.campaignID = campaignID
        self.attendeeKeys = attendeeKeys
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(sessionID, campaignID)
        writer.writeList(attendeeKeys)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let offset = reader.offset
        let sessionID = try reader.readString(maxLength: SessionPayload.maxIDBytes)
        let campaignID = try reader.readString(maxLength: Limits.maxCampaignIDBytes)
        guard !sessionID.isEmpty else { throw .invalidValue(at: offset, "a registration names its session") }
        let keys: [String] = try reader.readList(in: 1...Self.maxKeys, "a registration lists 1 to 200 attendees")
        self.init(sessionID: sessionID, campaignID: campaignID, attendeeKeys: keys)
    }
}
