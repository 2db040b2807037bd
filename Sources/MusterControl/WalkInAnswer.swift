public import MusterRules

/// `registered`: a walk-in is on the list and checked in, with the ticket code made for them.
public struct WalkInAnswer: Sendable, Equatable {
    public var ticket: String
    public var attendee: AttendeeSummary
    public var checkIn: PresenceSummary

    public init(ticket: String, attendee: AttendeeSummary, checkIn: PresenceSummary) {
        self.ticket = ticket
        self.attendee = attendee
        self.checkIn = checkIn
    }
}

extension WalkInAnswer: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        ticket = try fields.decode(String.self, forKey: .ticket)
        attendee = try fields.decode(AttendeeSummary.self, forKey: .attendee)
        checkIn = try fields.decode(PresenceSummary.self, forKey: .checkIn)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(ticket, forKey: .ticket)
        try fields.encode(attendee, forKey: .attendee)
        try fields.encode(checkIn, forKey: .checkIn)
    }
}
