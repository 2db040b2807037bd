public import MusterRules

/// `checked_in`: the attendee is in, and when and where (this kiosk, now).
public struct CheckInAnswer: Sendable, Equatable {
    public var attendee: AttendeeSummary
    public var checkIn: PresenceSummary
    /// Words for a walk-in who was on the list already ("You are already registered for this event.").
    public var message: String?
    /// How many others of the attendee's order (their party) are not inside yet, when any are: the
    /// screen offers to check them in too (``ControlRequest/checkInParty(query:)``).
    public var party: Int?

    public init(attendee: AttendeeSummary, checkIn: PresenceSummary, message: String? = nil, party: Int? = nil) {
        self.attendee = attendee
        self.checkIn = checkIn
        self.message = message
        self.party = party
    }
}

extension CheckInAnswer: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        attendee = try fields.decode(AttendeeSummary.self, forKey: .attendee)
        checkIn = try fields.decode(PresenceSummary.self, forKey: .checkIn)
        message = try fields.decodeIfPresent(String.self, forKey: .message)
        party = try fields.decodeIfPresent(Int.self, forKey: .party)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(attendee, forKey: .attendee)
        try fields.encode(checkIn, forKey: .checkIn)
        try fields.encodeIfPresent(message, forKey: .message)
        try fields.encodeIfPresent(party, forKey: .party)
    }
}
