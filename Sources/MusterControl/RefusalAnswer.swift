public import MusterCore
public import MusterRules

/// `not_found` or `refused`: why not, in words and (from a door) as a stable code.
public struct RefusalAnswer: Sendable, Equatable {
    public var message: String
    /// Why a door refused the scan (issue 16); nil for a refusal that is not a door's (no lock, a note
    /// without a check-in, a badge before one, a registration that is not valid).
    public var reason: DoorReason?
    /// The attendee refused, when one was found.
    public var attendee: AttendeeSummary?

    public init(_ message: String, reason: DoorReason? = nil, attendee: AttendeeSummary? = nil) {
        self.message = message
        self.reason = reason
        self.attendee = attendee
    }
}

extension RefusalAnswer: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        message = try fields.decode(String.self, forKey: .message)
        reason = try fields.doorReason()
        attendee = try fields.decodeIfPresent(AttendeeSummary.self, forKey: .attendee)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(message, forKey: .message)
        try fields.encodeIfPresent(reason?.code, forKey: .reason)
        try fields.encodeIfPresent(attendee, forKey: .attendee)
    }
}
