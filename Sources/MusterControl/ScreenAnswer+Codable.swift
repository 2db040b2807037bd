/// The screen's answer line: the same flat object as staff's (``ControlResponse``), so an older screen
/// reads a newer daemon and a screen running as staff reads staff's whole answer, keeping what it may.
extension ScreenAnswer: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: ControlResponseKey.self)
        switch try fields.decode(ControlResponse.Outcome.self, forKey: .outcome) {
        case .status: self = .context(try ScreenContext(fields: fields))
        case .found: self = .found(try ScreenMatch(fields: fields))
        case .checkedIn: self = .checkedIn(try ScreenWelcome(fields: fields))
        case .registered:
            self = .registered(
                try ScreenWelcome(fields: fields),
                ticket: try fields.decode(String.self, forKey: .ticket)
            )
        case .alreadyCheckedIn: self = .alreadyCheckedIn(try ScreenAlreadyIn(fields: fields))
        case .notFound: self = .notFound(try ScreenRefusal(fields: fields))
        case .refused: self = .refused(try ScreenRefusal(fields: fields))
        case .noted: self = .noted
        case .badgePrinted:
            self = .badgePrinted(
                try fields.decode(ScreenAttendee.self, forKey: .attendee),
                job: try fields.decode(Int.self, forKey: .badgeJob),
                at: try fields.decodeIfPresent(String.self, forKey: .badgePrintedAt)
            )
        case .badgeNotPrinted:
            self = .badgeNotPrinted(
                try fields.decode(ScreenAttendee.self, forKey: .attendee),
                message: try fields.decode(String.self, forKey: .message)
            )
        case .badgeAlreadyPrinted:
            self = .badgeAlreadyPrinted(
                try fields.decode(ScreenAttendee.self, forKey: .attendee),
                message: try fields.decode(String.self, forKey: .message)
            )
        case .partyCheckedIn: self = .partyCheckedIn(try ScreenPartyAnswer(fields: fields))
        case .redeemed:
            self = .redeemed(
                try fields.decode(ScreenAttendee.self, forKey: .attendee),
                addon: try fields.decode(String.self, forKey: .addon)
            )
        case .attended:
            self = .attended(
                try fields.decode(ScreenAttendee.self, forKey: .attendee),
                session: try fields.decode(String.self, forKey: .session),
                direction: AttendanceAnswer.direction(try fields.decode(String.self, forKey: .direction))
            )
        case .error: self = .failure(try ControlFailure(fields: fields))
        case .checkedOut, .notCheckedIn, .head, .submitted, .pong, .badgeReplaced, .spotOpened:
            throw DecodingError.dataCorruptedError(
                forKey: .outcome,
                in: fields,
                debugDescription: "not an answer the kiosk screen asks for"
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: ControlResponseKey.self)
        try fields.encode(outcome, forKey: .outcome)
        switch self {
        case .context(let context): try context.encode(fields: &fields)
        case .found(let match): try match.encode(fields: &fields)
        case .checkedIn(let welcome): try welcome.encode(fields: &fields)
        case .registered(let welcome, let ticket):
            try welcome.encode(fields: &fields)
            try fields.encode(ticket, forKey: .ticket)
        case .alreadyCheckedIn(let already): try already.encode(fields: &fields)
        case .notFound(let refusal), .refused(let refusal): try refusal.encode(fields: &fields)
        case .noted: break
        case .badgePrinted(let attendee, let job, let at):
            try fields.encode(attendee, forKey: .attendee)
            try fields.encode(job, forKey: .badgeJob)
            try fields.encodeIfPresent(at, forKey: .badgePrintedAt)
        case .badgeNotPrinted(let attendee, let message), .badgeAlreadyPrinted(let attendee, let message):
            try fields.encode(attendee, forKey: .attendee)
            try fields.encode(message, forKey: .message)
        case .partyCheckedIn(let party): try party.encode(fields: &fields)
        case .redeemed(let attendee, let addon):
            try fields.encode(attendee, forKey: .attendee)
            try fields.encode(addon, forKey: .addon)
        case .attended(let attendee, let session, let direction):
            try fields.encode(attendee, forKey: .attendee)
            try fields.encode(session, forKey: .session)
            try fields.encode(AttendanceAnswer.word(direction), forKey: .direction)
        case .failure(let failure): try failure.encode(fields: &fields)
        }
    }
}
