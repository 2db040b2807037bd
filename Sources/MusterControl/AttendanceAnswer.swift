public import MusterCore
public import MusterRules

/// `attended` (issue 36): a session door recorded an entry or a leave. For staff, who, which session
/// and where; the public screen is told the session's name and the person's own first name only.
public struct AttendanceAnswer: Sendable, Equatable {
    public var attendee: AttendeeSummary
    /// The session's name as scheduled (or the spot's).
    public var session: String
    public var sessionID: String
    public var direction: AttendancePayload.Direction
    /// When and at which kiosk.
    public var at: PresenceSummary

    public init(
        attendee: AttendeeSummary,
        session: String,
        sessionID: String,
        direction: AttendancePayload.Direction,
        at: PresenceSummary
    ) {
        self.attendee = attendee
        self.session = session
        self.sessionID = sessionID
        self.direction = direction
        self.at = at
    }

    /// The direction's word on the wire: `entered` or `left`.
    static func word(_ direction: AttendancePayload.Direction) -> String { direction == .left ? "left" : "entered" }
    static func direction(_ word: String) -> AttendancePayload.Direction { word == "left" ? .left : .entered }
}

extension AttendanceAnswer: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        attendee = try fields.decode(AttendeeSummary.self, forKey: .attendee)
        session = try fields.decode(String.self, forKey: .session)
        sessionID = try fields.decode(String.self, forKey: .sessionID)
        direction = Self.direction(try fields.decode(String.self, forKey: .direction))
        at = try fields.decode(PresenceSummary.self, forKey: .checkIn)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(attendee, forKey: .attendee)
        try fields.encode(session, forKey: .session)
        try fields.encode(sessionID, forKey: .sessionID)
        try fields.encode(Self.word(direction), forKey: .direction)
        try fields.encode(at, forKey: .checkIn)
    }
}

/// `spot_opened` (issue 36): a check-in spot opened at this kiosk: its name, its six-digit code and
/// when it closes. For the host (staff on that kiosk); the code is what the room is shown.
public struct SpotAnswer: Sendable, Equatable {
    public var session: String
    public var sessionID: String
    public var code: String
    public var zone: String
    public var untilMillis: Int64

    public init(session: String, sessionID: String, code: String, zone: String, untilMillis: Int64) {
        self.session = session
        self.sessionID = sessionID
        self.code = code
        self.zone = zone
        self.untilMillis = untilMillis
    }
}

extension SpotAnswer: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        session = try fields.decode(String.self, forKey: .session)
        sessionID = try fields.decode(String.self, forKey: .sessionID)
        code = try fields.decode(String.self, forKey: .spotCode)
        zone = try fields.decode(String.self, forKey: .zone)
        untilMillis = try fields.decode(Int64.self, forKey: .untilMillis)
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(session, forKey: .session)
        try fields.encode(sessionID, forKey: .sessionID)
        try fields.encode(code, forKey: .spotCode)
        try fields.encode(zone, forKey: .zone)
        try fields.encode(untilMillis, forKey: .untilMillis)
    }
}
