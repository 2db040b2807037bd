public import MusterCore

/// `already_checked_in` as the public screen is told it: when, never where.
public struct ScreenAlreadyIn: Sendable, Equatable {
    public var attendee: ScreenAttendee
    /// When the attendee first arrived, when there is a check-in to show.
    public var atMillis: UInt64?
    public var message: String?
    public var reason: DoorReason?

    public init(attendee: ScreenAttendee, atMillis: UInt64?, message: String?, reason: DoorReason? = nil) {
        self.attendee = attendee
        self.atMillis = atMillis
        self.message = message
        self.reason = reason
    }
}

extension ScreenAlreadyIn: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        attendee = try fields.decode(ScreenAttendee.self, forKey: .attendee)
        atMillis = try fields.checkInTime()
        message = try fields.decodeIfPresent(String.self, forKey: .message)
        reason = try fields.doorReason()
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(attendee, forKey: .attendee)
        try fields.encodeCheckInTime(atMillis)
        try fields.encodeIfPresent(message, forKey: .message)
        try fields.encodeIfPresent(reason?.code, forKey: .reason)
    }
}
