/// `checked_in` or `registered` as the public screen is told it: whom to greet and when they came in.
public struct ScreenWelcome: Sendable, Equatable {
    public var attendee: ScreenAttendee
    /// When the check-in happened (here and now; the screen is not told the kiosk or place).
    public var atMillis: UInt64
    /// Words for a walk-in who was on the list already.
    public var message: String?
    /// How many others of the attendee's order are not inside yet (a count, never who).
    public var party: Int?

    public init(attendee: ScreenAttendee, atMillis: UInt64, message: String? = nil, party: Int? = nil) {
        self.attendee = attendee
        self.atMillis = atMillis
        self.message = message
        self.party = party
    }
}

extension ScreenWelcome: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        attendee = try fields.decode(ScreenAttendee.self, forKey: .attendee)
        guard let atMillis = try fields.checkInTime() else {
            throw DecodingError.keyNotFound(
                ControlResponseKey.checkIn,
                .init(codingPath: fields.codingPath, debugDescription: "a check-in without its time")
            )
        }
        self.atMillis = atMillis
        message = try fields.decodeIfPresent(String.self, forKey: .message)
        party = try fields.decodeIfPresent(Int.self, forKey: .party)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(attendee, forKey: .attendee)
        try fields.encodeCheckInTime(atMillis)
        try fields.encodeIfPresent(message, forKey: .message)
        try fields.encodeIfPresent(party, forKey: .party)
    }
}
