public import MusterControl
import MusterTime

/// Human text and exit codes for one-shot kiosk commands (`checkin`, `checkout`, `register`).
public enum OneShotText {
    public static func describe(_ response: ControlResponse) -> String {
        let who =
            response.attendee.map { attendee in
                let name = [attendee.firstName, attendee.lastName].filter { !$0.isEmpty }.joined(separator: " ")
                return attendee.company.isEmpty ? name : "\(name) (\(attendee.company))"
            } ?? ""
        let place =
            response.checkIn.map { presence in
                " at \(ClockText.time(millis: Int64(clamping: presence.atMillis))) at kiosk \(presence.kioskName)"
                    + (presence.location.isEmpty ? "" : " (\(presence.location))")
            } ?? ""
        switch response.outcome {
        case .checkedIn: return "Checked in: \(who)\(place)."
        case .alreadyCheckedIn: return "Already checked in: \(who)\(place)."
        case .registered: return "Registered and checked in: \(who), ticket \(response.ticket ?? "?")\(place)."
        case .checkedOut: return "Checked out: \(who)."
        case .notCheckedIn: return "Not checked in: \(who)."
        case .notFound: return "Not found: no ticket or email matches."
        case .refused: return "Refused: \(response.message ?? "")" + (who.isEmpty ? "" : " (\(who))")
        case .badgePrinted: return "Badge printed: \(who)" + (response.badgeJob.map { " (job \($0))." } ?? ".")
        case .badgeNotPrinted: return "Badge not printed: \(who): \(response.message ?? "")"
        case .badgeAlreadyPrinted: return "Badge already printed: \(who): \(response.message ?? "")"
        default: return response.message ?? "\(response.outcome.rawValue)"
        }
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
