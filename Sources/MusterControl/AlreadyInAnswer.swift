public import MusterCore
public import MusterRules

/// `already_checked_in`: the attendee is inside already (a door's refusal, or a walk-in on the list).
public struct AlreadyInAnswer: Sendable, Equatable {
    public var attendee: AttendeeSummary
    /// The earliest check-in, when there is one to show.
    public var checkIn: PresenceSummary?
    public var message: String?
    /// ``MusterCore/DoorReason/alreadyInside`` from a door; nil for a walk-in's registration.
    public var reason: DoorReason?

    public init(attendee: AttendeeSummary, checkIn: PresenceSummary?, message: String?, reason: DoorReason? = nil) {
        self.attendee = attendee
        self.checkIn = checkIn
        self.message = message
        self.reason = reason
    }
}

extension AlreadyInAnswer: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        attendee = try fields.decode(AttendeeSummary.self, forKey: .attendee)
        checkIn = try fields.decodeIfPresent(PresenceSummary.self, forKey: .checkIn)
        message = try fields.decodeIfPresent(String.self, forKey: .message)
        reason = try fields.doorReason()
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(attendee, forKey: .attendee)
        try fields.encodeIfPresent(checkIn, forKey: .checkIn)
        try fields.encodeIfPresent(message, forKey: .message)
        try fields.encodeIfPresent(reason?.code, forKey: .reason)
    }
}
