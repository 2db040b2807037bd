import MusterRules

extension ScreenAnswer {
    /// What the public screen's user is told of staff's answer `response`: the rule of what the screen
    /// may know, in one place. It can only pick fields the screen's types have, so nothing needs to be
    /// taken out afterwards.
    ///
    /// The answers of requests the screen may not send (check-out, head, submit, status, ping) have no
    /// screen form: the access policy refuses those requests before they are carried out, so meeting one
    /// here is the daemon's own error, answered as such. Attendees are named by `handles`, never by key.
    public init(_ response: ControlResponse, handles: ScreenHandles) {
        switch response {
        case .screen(let context): self = .context(context)
        case .found(let match): self = .found(match)
        case .checkedIn(let answer):
            self = .checkedIn(
                ScreenWelcome(
                    answer.attendee,
                    at: answer.checkIn,
                    message: answer.message,
                    party: answer.party,
                    handles: handles
                )
            )
        case .registered(let answer):
            // A walk-in's own new ticket is the one ticket the screen shows (and as a QR code).
            self = .registered(
                ScreenWelcome(answer.attendee, at: answer.checkIn, handles: handles),
                ticket: answer.ticket
            )
        case .alreadyCheckedIn(let answer):
            self = .alreadyCheckedIn(
                ScreenAlreadyIn(
                    attendee: ScreenAttendee(answer.attendee, handles: handles),
                    atMillis: answer.checkIn?.atMillis,
                    message: answer.message,
                    reason: answer.reason
                )
            )
        case .notFound(let refusal): self = .notFound(ScreenRefusal(refusal, handles: handles))
        case .refused(let refusal): self = .refused(ScreenRefusal(refusal, handles: handles))
        case .noted: self = .noted
        case .badgePrinted(let attendee, let job, let at):
            self = .badgePrinted(ScreenAttendee(attendee, handles: handles), job: job, at: at)
        case .partyCheckedIn(let party):
            self = .partyCheckedIn(ScreenPartyAnswer(admitted: party.admitted.count, refused: party.refused.count))
        case .redeemed(let attendee, let addon):
            self = .redeemed(ScreenAttendee(attendee, handles: handles), addon: addon)
        case .badgeNotPrinted(let attendee, let message):
            self = .badgeNotPrinted(ScreenAttendee(attendee, handles: handles), message: message)
        case .badgeAlreadyPrinted(let attendee, let message):
            self = .badgeAlreadyPrinted(ScreenAttendee(attendee, handles: handles), message: message)
        case .attended(let answer):
            self = .attended(
                ScreenAttendee(answer.attendee, handles: handles),
                session: answer.session,
                direction: answer.direction
            )
        case .error(let failure): self = .failure(failure)
        case .checkedOut, .notCheckedIn, .head, .submitted, .status, .pong, .badgeReplaced, .spotOpened:
            self = .failure(
                ControlFailure(.internal, "'\(response.outcome.rawValue)' is no answer for the kiosk screen")
            )
        }
    }
}

extension ScreenWelcome {
    init(
        _ attendee: AttendeeSummary,
        at checkIn: PresenceSummary,
        message: String? = nil,
        party: Int? = nil,
        handles: ScreenHandles
    ) {
        self.init(
            attendee: ScreenAttendee(attendee, handles: handles),
            atMillis: checkIn.atMillis,
            message: message,
            party: party
        )
    }
}

extension ScreenRefusal {
    /// A replaced badge's refusal reaches the screen without its owner or where and when it was
    /// replaced: whoever holds the old badge learns only that it is dead. An add-on already handed out
    /// reaches it without where and when, for the same reason.
    init(_ refusal: RefusalAnswer, handles: ScreenHandles) {
        let replaced = refusal.reason == .replaced
        let redeemed = refusal.reason == .alreadyRedeemed
        self.init(
            replaced ? DoorText.replacedOnScreen : redeemed ? DoorText.alreadyRedeemedOnScreen : refusal.message,
            reason: refusal.reason,
            attendee: replaced ? nil : refusal.attendee.map { ScreenAttendee($0, handles: handles) }
        )
    }
}
