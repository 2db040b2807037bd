import MusterCore
import MusterRules

/// The response line: one flat JSON object, `outcome` beside the fields of that outcome, as daemons have
/// always written it (the recorded lines in `RecordedControlLines` are the reference), so scripts and
/// older clients read it unchanged.
extension ControlResponse: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: ControlResponseKey.self)
        switch try fields.decode(Outcome.self, forKey: .outcome) {
        case .checkedIn: self = .checkedIn(try CheckInAnswer(fields: fields))
        case .alreadyCheckedIn: self = .alreadyCheckedIn(try AlreadyInAnswer(fields: fields))
        case .checkedOut: self = .checkedOut(try fields.decode(AttendeeSummary.self, forKey: .attendee))
        case .notCheckedIn: self = .notCheckedIn(try fields.decode(AttendeeSummary.self, forKey: .attendee))
        case .registered: self = .registered(try WalkInAnswer(fields: fields))
        case .noted: self = .noted
        case .notFound: self = .notFound(try RefusalAnswer(fields: fields))
        case .refused: self = .refused(try RefusalAnswer(fields: fields))
        case .head:
            let hex = try fields.decode(String.self, forKey: .headHash)
            guard let hash = Hex.decode(hex) else {
                throw DecodingError.dataCorruptedError(forKey: .headHash, in: fields, debugDescription: "not hex")
            }
            self = .head(seq: try fields.decode(UInt64.self, forKey: .headSeq), hash: hash)
        case .submitted: self = .submitted(try SubmitAnswer(fields: fields))
        case .status:
            // The daemon's status always names its key; the screen's never does.
            self =
                fields.contains(.kioskKey)
                ? .status(try StatusAnswer(fields: fields)) : .screen(try ScreenContext(fields: fields))
        case .pong: self = .pong(try PongAnswer(fields: fields))
        case .error: self = .error(try ControlFailure(fields: fields))
        case .badgePrinted:
            self = .badgePrinted(
                try fields.decode(AttendeeSummary.self, forKey: .attendee),
                job: try fields.decode(Int.self, forKey: .badgeJob),
                at: try fields.decodeIfPresent(String.self, forKey: .badgePrintedAt)
            )
        case .badgeNotPrinted:
            self = .badgeNotPrinted(
                try fields.decode(AttendeeSummary.self, forKey: .attendee),
                message: try fields.decode(String.self, forKey: .message)
            )
        case .badgeAlreadyPrinted:
            self = .badgeAlreadyPrinted(
                try fields.decode(AttendeeSummary.self, forKey: .attendee),
                message: try fields.decode(String.self, forKey: .message)
            )
        case .found: self = .found(try ScreenMatch(fields: fields))
        case .badgeReplaced:
            self = .badgeReplaced(
                try fields.decode(AttendeeSummary.self, forKey: .attendee),
                code: try fields.decode(String.self, forKey: .ticket)
            )
        case .partyCheckedIn: self = .partyCheckedIn(try PartyAnswer(fields: fields))
        case .attended: self = .attended(try AttendanceAnswer(fields: fields))
        case .spotOpened: self = .spotOpened(try SpotAnswer(fields: fields))
        case .redeemed:
            self = .redeemed(
                try fields.decode(AttendeeSummary.self, forKey: .attendee),
                addon: try fields.decode(String.self, forKey: .addon)
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: ControlResponseKey.self)
        try fields.encode(outcome, forKey: .outcome)
        switch self {
        case .checkedIn(let answer): try answer.encode(fields: &fields)
        case .alreadyCheckedIn(let answer): try answer.encode(fields: &fields)
        case .checkedOut(let attendee), .notCheckedIn(let attendee): try fields.encode(attendee, forKey: .attendee)
        case .registered(let answer): try answer.encode(fields: &fields)
        case .noted: break
        case .notFound(let refusal), .refused(let refusal): try refusal.encode(fields: &fields)
        case .head(let seq, let hash):
            try fields.encode(seq, forKey: .headSeq)
            try fields.encode(Hex.encode(hash), forKey: .headHash)
        case .submitted(let answer): try answer.encode(fields: &fields)
        case .status(let status): try status.encode(fields: &fields)
        case .screen(let context): try context.encode(fields: &fields)
        case .pong(let pong): try pong.encode(fields: &fields)
        case .error(let failure): try failure.encode(fields: &fields)
        case .badgePrinted(let attendee, let job, let at):
            try fields.encode(attendee, forKey: .attendee)
            try fields.encode(job, forKey: .badgeJob)
            try fields.encodeIfPresent(at, forKey: .badgePrintedAt)
        case .badgeNotPrinted(let attendee, let message), .badgeAlreadyPrinted(let attendee, let message):
            try fields.encode(attendee, forKey: .attendee)
            try fields.encode(message, forKey: .message)
        case .found(let match): try match.encode(fields: &fields)
        case .badgeReplaced(let attendee, let code):
            try fields.encode(attendee, forKey: .attendee)
            try fields.encode(code, forKey: .ticket)
        case .redeemed(let attendee, let addon):
            try fields.encode(attendee, forKey: .attendee)
            try fields.encode(addon, forKey: .addon)
        case .partyCheckedIn(let party): try party.encode(fields: &fields)
        case .attended(let answer): try answer.encode(fields: &fields)
        case .spotOpened(let answer): try answer.encode(fields: &fields)
        }
    }
}
