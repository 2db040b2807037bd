/// An attendee entering or leaving a session (issue 36), kind tag 17, kiosk-authored: a scan at a
/// door of the session's room, or at any kiosk of its zone with a spot's code.
///
/// Attendance is a grow-only set of these; minutes, lateness and who was in when are computed from
/// the whole set (``AttendanceLedger``), so every kiosk that holds the same records shows the same
/// figures, whatever order they arrived in. When is the delta's own timestamp.
public struct AttendancePayload: DeltaPayload {
    public static let kind = DeltaKind.attendance

    public enum Direction: UInt8, ByteEnum, Sendable, Equatable {
        public static let wireName = "attendance direction"
        case entered = 1
        case left = 2
    }

    public var campaignID: String
    public var attendeeKey: String
    public var sessionID: String
    public var direction: Direction

    public init(campaignID: String, attendeeKey: String, sessionID: String, direction: Direction) {
        self.campaignID = campaignID
        self.attendeeKey = attendeeKey
        self.sessionID = sessionID
        self.direction = direction
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID, attendeeKey, sessionID, direction)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let campaignID = try reader.readString(maxLength: Limits.maxCampaignIDBytes)
        let attendeeKey = try reader.read(String.self)
        let offset = reader.offset
        let sessionID = try reader.readString(maxLength: SessionPayload.maxIDBytes)
        guard !sessionID.isEmpty else { throw .invalidValue(at: offset, "attendance names its session") }
        self.init(campaignID: campaignID, attendeeKey: attendeeKey, sessionID: sessionID, direction: try reader.read())
    }
}
