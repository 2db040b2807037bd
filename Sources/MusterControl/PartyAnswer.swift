public import MusterRules

/// `party_checked_in` (issue 35): the rest of an order checked in with one answer, each person their own
/// check-in judged by the door's rules (capacity, escrow, attention and all). For staff, who went in and
/// who did not and why; the public screen is told the counts only (``ScreenPartyAnswer``).
public struct PartyAnswer: Sendable, Equatable {
    /// One member the door refused: who, the stable reason and its words.
    public struct Refused: Codable, Sendable, Equatable {
        public var attendee: AttendeeSummary
        public var reason: String
        public var message: String

        public init(attendee: AttendeeSummary, reason: String, message: String) {
            self.attendee = attendee
            self.reason = reason
            self.message = message
        }
    }

    public var admitted: [AttendeeSummary]
    public var refused: [Refused]

    public init(admitted: [AttendeeSummary], refused: [Refused]) {
        self.admitted = admitted
        self.refused = refused
    }
}

extension PartyAnswer: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        admitted = try fields.decode([AttendeeSummary].self, forKey: .partyAdmitted)
        refused = try fields.decode([Refused].self, forKey: .partyRefused)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(admitted, forKey: .partyAdmitted)
        try fields.encode(refused, forKey: .partyRefused)
        // The counts the screen reads, so a screen running as staff reads staff's whole answer.
        try ScreenPartyAnswer(admitted: admitted.count, refused: refused.count).encode(fields: &fields)
    }
}

/// `party_checked_in` as the public screen is told it: how many of the order went in and how many did
/// not, never who (the screen shows nobody but the person standing at it).
public struct ScreenPartyAnswer: Sendable, Equatable {
    public var admitted: Int
    public var refused: Int

    public init(admitted: Int, refused: Int) {
        self.admitted = admitted
        self.refused = refused
    }
}

extension ScreenPartyAnswer: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        admitted = try fields.decode(Int.self, forKey: .partyAdmittedCount)
        refused = try fields.decode(Int.self, forKey: .partyRefusedCount)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(admitted, forKey: .partyAdmittedCount)
        try fields.encode(refused, forKey: .partyRefusedCount)
    }
}
