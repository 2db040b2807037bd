public import MusterCore

/// `not_found` or `refused` as the public screen is told it.
public struct ScreenRefusal: Sendable, Equatable {
    public var message: String
    public var reason: DoorReason?
    /// The attendee refused, when one was found (as the screen may know them).
    public var attendee: ScreenAttendee?

    public init(_ message: String, reason: DoorReason? = nil, attendee: ScreenAttendee? = nil) {
        self.message = message
        self.reason = reason
        self.attendee = attendee
    }
}

extension ScreenRefusal: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        message = try fields.decode(String.self, forKey: .message)
        reason = try fields.doorReason()
        attendee = try fields.decodeIfPresent(ScreenAttendee.self, forKey: .attendee)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(message, forKey: .message)
        try fields.encodeIfPresent(reason?.code, forKey: .reason)
        try fields.encodeIfPresent(attendee, forKey: .attendee)
    }
}
