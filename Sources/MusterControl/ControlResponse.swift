public import MusterRules

/// The answer to one ``ControlRequest``, as staff are told it: one case per outcome, each with what that
/// outcome carries, so a client switches on the answer and finds every field it needs there.
///
/// On the wire an answer stays one flat object, `{"outcome":"checked_in","attendee":{…},…}`, as it always
/// was (`ControlResponse+Codable.swift`). The public screen's user is told a ``ScreenAnswer`` instead.
public enum ControlResponse: Sendable, Equatable {
    case checkedIn(CheckInAnswer)
    case alreadyCheckedIn(AlreadyInAnswer)
    case checkedOut(AttendeeSummary)
    case notCheckedIn(AttendeeSummary)
    /// A walk-in registered and checked in.
    case registered(WalkInAnswer)
    case noted
    case notFound(RefusalAnswer)
    /// Refused by policy: no lock, outside the window, ticket not valid, a door rule.
    case refused(RefusalAnswer)
    /// The head of the author asked for: its sequence number and hash.
    case head(seq: UInt64, hash: [UInt8])
    case submitted(SubmitAnswer)
    case status(StatusAnswer)
    /// The answer to `screen` (outcome `status` on the wire, without a kiosk key).
    case screen(ScreenContext)
    case pong(PongAnswer)
    /// The request could not be carried out (bad request, disk full, invalid deltas, forbidden).
    case error(ControlFailure)
    /// `badge`: the job completed on the printer (its CUPS job id) and the badge delta is recorded.
    /// `at` names the peer that printed it when this kiosk's printer could not (`[badge] fallback`):
    /// where the attendee collects it.
    case badgePrinted(AttendeeSummary, job: Int, at: String? = nil)
    /// `badge`: nothing printed (no printer, queue stopped, job failed); the message says why, for staff.
    /// The check-in stands. The screen sends the attendee to the staff desk.
    case badgeNotPrinted(AttendeeSummary, message: String)
    /// `badge` with reason self-service: a badge was already printed for this attendee on some kiosk;
    /// only staff reprint.
    case badgeAlreadyPrinted(AttendeeSummary, message: String)
    /// A `lookup` found the attendee.
    case found(ScreenMatch)
    /// `replace_badge`: the attendee's valid code now (the new one, or the list's after a restore),
    /// recorded; every kiosk that hears of it refuses the others.
    case badgeReplaced(AttendeeSummary, code: String)
    /// `redeem`: the add-on (as the attendee's ticket names it) is handed out and recorded.
    case redeemed(AttendeeSummary, addon: String)
    /// `checkin_party`: who of the order went in, who did not and why.
    case partyCheckedIn(PartyAnswer)
    /// `attend`: the attendee entered or left the session (issue 36), recorded.
    case attended(AttendanceAnswer)
    /// `open_spot`: the spot, its code and when it closes, recorded.
    case spotOpened(SpotAnswer)

    /// The outcome's name on the wire (`outcome`). The raw values are the wire format; add cases, never
    /// rename them.
    public enum Outcome: String, Codable, Sendable, CaseIterable {
        case checkedIn = "checked_in"
        case alreadyCheckedIn = "already_checked_in"
        case checkedOut = "checked_out"
        case notCheckedIn = "not_checked_in"
        case registered
        case noted
        case notFound = "not_found"
        case refused
        case head
        case submitted
        case status
        case pong
        case error
        case badgePrinted = "badge_printed"
        case badgeNotPrinted = "badge_not_printed"
        case badgeAlreadyPrinted = "badge_already_printed"
        case found
        case badgeReplaced = "badge_replaced"
        case redeemed
        case partyCheckedIn = "party_checked_in"
        case attended
        case spotOpened = "spot_opened"
    }

    /// An ``error(_:)`` answer: the code for programs, the sentence for people.
    public static func failure(_ code: ControlErrorCode, _ message: String) -> ControlResponse {
        .error(ControlFailure(code, message))
    }

    public var outcome: Outcome {
        switch self {
        case .checkedIn: .checkedIn
        case .alreadyCheckedIn: .alreadyCheckedIn
        case .checkedOut: .checkedOut
        case .notCheckedIn: .notCheckedIn
        case .registered: .registered
        case .noted: .noted
        case .notFound: .notFound
        case .refused: .refused
        case .head: .head
        case .submitted: .submitted
        case .status, .screen: .status
        case .pong: .pong
        case .error: .error
        case .badgePrinted: .badgePrinted
        case .badgeNotPrinted: .badgeNotPrinted
        case .badgeAlreadyPrinted: .badgeAlreadyPrinted
        case .found: .found
        case .badgeReplaced: .badgeReplaced
        case .redeemed: .redeemed
        case .partyCheckedIn: .partyCheckedIn
        case .attended: .attended
        case .spotOpened: .spotOpened
        }
    }

    /// An answer that says a write of this kiosk is done (a check-in, a check-out, a walk-in, a note,
    /// a replaced badge): what `ack_copies` holds back until peers hold it too. A refusal is recorded
    /// too but promises nothing to the person refused, so it is not held back.
    public var recordsLocalWrite: Bool {
        switch self {
        case .checkedIn, .checkedOut, .registered, .noted, .badgeReplaced, .redeemed, .partyCheckedIn, .attended,
            .spotOpened:
            true
        case .alreadyCheckedIn, .notCheckedIn, .notFound, .refused, .head, .submitted, .status, .screen, .pong,
            .error, .badgePrinted, .badgeNotPrinted, .badgeAlreadyPrinted, .found:
            false
        }
    }

    /// The daemon's words for people, on the outcomes that carry them.
    public var message: String? {
        switch self {
        case .checkedIn(let answer): answer.message
        case .alreadyCheckedIn(let answer): answer.message
        case .notFound(let refusal), .refused(let refusal): refusal.message
        case .screen(let context): context.refusal
        case .error(let failure): failure.message
        case .badgeNotPrinted(_, let message), .badgeAlreadyPrinted(_, let message): message
        case .checkedOut, .notCheckedIn, .registered, .noted, .head, .submitted, .status, .pong, .badgePrinted, .found,
            .badgeReplaced, .redeemed, .partyCheckedIn, .attended, .spotOpened:
            nil
        }
    }
}

extension ControlResponse: CustomStringConvertible {
    /// The outcome and its words, for logs and tools: `refused: Check-in at North door opens at 10:00.`
    public var description: String {
        message.map { "\(outcome.rawValue): \($0)" } ?? outcome.rawValue
    }
}
