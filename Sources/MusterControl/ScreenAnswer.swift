public import MusterCore

/// What the public screen's user is told: the answers to the requests the screen may send (`screen`,
/// `lookup`, `checkin`, `register`, `note`, the self-service `badge`), and nothing else.
///
/// The screen stands in a public hallway, and a process that escaped it holds its socket, so its answers
/// are types of their own with no field that could carry another attendee's data: no company, email
/// or ticket code, no last name but its initial, no other kiosk's name or place (a check-in says when,
/// never where). The one ticket is a walk-in's own, made by the registration it answers. The daemon
/// makes these from staff's ``ControlResponse`` (``init(_:)``), which can only pick what fits.
///
/// On the wire each is the flat response line every client reads, with the same `outcome`.
public enum ScreenAnswer: Sendable, Equatable {
    /// The answer to `screen` (outcome `status`).
    case context(ScreenContext)
    case found(ScreenMatch)
    case checkedIn(ScreenWelcome)
    /// A walk-in's registration, with the ticket code it made for them (shown as a QR code to scan at re-entry).
    case registered(ScreenWelcome, ticket: String)
    case alreadyCheckedIn(ScreenAlreadyIn)
    case notFound(ScreenRefusal)
    case refused(ScreenRefusal)
    case noted
    /// `at`: the peer that printed it, where the attendee collects it (`[badge] fallback`).
    case badgePrinted(ScreenAttendee, job: Int, at: String? = nil)
    case badgeNotPrinted(ScreenAttendee, message: String)
    case badgeAlreadyPrinted(ScreenAttendee, message: String)
    /// An add-on desk handed the add-on out (issue 35): to whom, and which add-on.
    case redeemed(ScreenAttendee, addon: String)
    /// The rest of an order checked in: how many went in and how many did not, never who.
    case partyCheckedIn(ScreenPartyAnswer)
    /// A session door (issue 36): the person's own entry or leave, and the session's name (its room and
    /// time are on the screen already; who else is in it never is).
    case attended(ScreenAttendee, session: String, direction: AttendancePayload.Direction)
    case failure(ControlFailure)

    public var outcome: ControlResponse.Outcome {
        switch self {
        case .context: .status
        case .found: .found
        case .checkedIn: .checkedIn
        case .registered: .registered
        case .alreadyCheckedIn: .alreadyCheckedIn
        case .notFound: .notFound
        case .refused: .refused
        case .noted: .noted
        case .badgePrinted: .badgePrinted
        case .badgeNotPrinted: .badgeNotPrinted
        case .badgeAlreadyPrinted: .badgeAlreadyPrinted
        case .redeemed: .redeemed
        case .partyCheckedIn: .partyCheckedIn
        case .attended: .attended
        case .failure: .error
        }
    }

    /// The daemon's words, on the answers that carry them (in English: the screen says its own
    /// outcomes in the attendee's language and shows these only for what it has no words of its own for).
    public var message: String? {
        switch self {
        case .context(let context): context.refusal
        case .checkedIn(let welcome), .registered(let welcome, _): welcome.message
        case .alreadyCheckedIn(let already): already.message
        case .notFound(let refusal), .refused(let refusal): refusal.message
        case .badgeNotPrinted(_, let message), .badgeAlreadyPrinted(_, let message): message
        case .failure(let failure): failure.message
        case .found, .noted, .badgePrinted, .redeemed, .partyCheckedIn, .attended: nil
        }
    }
}
