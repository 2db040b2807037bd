public import MusterControl
import MusterCore
import MusterRules
import MusterTime

/// Human text and exit codes for one-shot kiosk commands (`checkin`, `checkout`, `register`).
public enum OneShotText {
    public static func describe(_ response: ControlResponse) -> String {
        switch response {
        case .checkedIn(let answer):
            "Checked in: \(who(answer.attendee))\(place(answer.checkIn))."
                + (answer.party.map { " \($0) more of their order not inside: muster checkin --party QUERY" } ?? "")
        case .partyCheckedIn(let party):
            (["Party: \(party.admitted.count) checked in, \(party.refused.count) refused."]
                + party.admitted.map { "  in: \(who($0))" }
                + party.refused.map { "  refused (\($0.reason)): \(who($0.attendee)): \($0.message)" })
                .joined(separator: "\n")
        case .alreadyCheckedIn(let answer): "Already checked in: \(who(answer.attendee))\(place(answer.checkIn))."
        case .registered(let walkIn):
            "Registered and checked in: \(who(walkIn.attendee)), ticket \(walkIn.ticket)\(place(walkIn.checkIn))."
        case .checkedOut(let attendee): "Checked out: \(who(attendee))."
        case .notCheckedIn(let attendee): "Not checked in: \(who(attendee))."
        case .notFound: "Not found: no ticket or email matches."
        case .refused(let refusal) where refusal.reason == .needsStaff:
            // Staff's own terminal: the attention text, and how to admit once they have seen the person.
            "Needs staff: \(who(refusal.attendee)). Attention: \(refusal.attendee?.attention ?? "see this attendee")."
                + " Once seen, admit with: muster checkin --confirm QUERY"
        case .refused(let refusal): "Refused: \(refusal.message)\(aside(who(refusal.attendee)))"
        case .badgePrinted(let attendee, let job, let at):
            "Badge printed: \(who(attendee)) (job \(job)\(at.map { " at \(TerminalText.sanitize($0))" } ?? ""))."
        case .badgeNotPrinted(let attendee, let message): "Badge not printed: \(who(attendee)): \(message)"
        case .badgeAlreadyPrinted(let attendee, let message): "Badge already printed: \(who(attendee)): \(message)"
        case .redeemed(let attendee, let addon): "Handed out: \(addon) to \(who(attendee))."
        case .attended(let answer):
            (answer.direction == .entered ? "Entered" : "Left") + " \(TerminalText.sanitize(answer.session)): "
                + "\(who(answer.attendee))\(place(answer.at))."
        case .spotOpened(let spot):
            "Spot open: \(TerminalText.sanitize(spot.session)) in \(TerminalText.sanitize(spot.zone)), code \(spot.code), "
                + "until \(ClockText.time(millis: spot.untilMillis))."
        case .badgeReplaced(let attendee, let code):
            "Badge code replaced: \(who(attendee)) now has code \(code); every other code of theirs is refused."
        case .noted, .head, .submitted, .status, .screen, .pong, .error, .found:
            words(response)
        }
    }

    /// "Ada Lovelace (Analytical)"; empty for no attendee.
    static func who(_ attendee: AttendeeSummary?) -> String {
        guard let attendee else { return "" }
        let name = [attendee.firstName, attendee.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        return attendee.company.isEmpty ? name : "\(name) (\(attendee.company))"
    }

    /// " at 09:14 at kiosk Hall A (North door)"; empty for no check-in.
    static func place(_ presence: PresenceSummary?) -> String {
        guard let presence else { return "" }
        return " at \(ClockText.time(millis: Int64(clamping: presence.atMillis))) at kiosk \(presence.kioskName)"
            + (presence.location.isEmpty ? "" : " (\(presence.location))")
    }

    /// Any other answer: its words, or its outcome's name when it has none.
    private static func words(_ response: ControlResponse) -> String {
        guard let message = response.message else { return response.outcome.rawValue }
        return message
    }

    private static func aside(_ text: String) -> String {
        text.isEmpty ? "" : " (\(text))"
    }

    /// The documented exit code of an outcome (see `muster --help`).
    public static func exitCode(_ outcome: ControlResponse.Outcome) -> Int32? {
        switch outcome {
        case .notFound: 2
        case .alreadyCheckedIn, .badgeAlreadyPrinted: 3
        case .refused, .notCheckedIn: 4
        case .badgeNotPrinted: 6
        case .error: 1
        default: 0
        }
    }
}
