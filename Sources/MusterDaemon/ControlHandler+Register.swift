import MusterControl
import MusterCore
import MusterRules
import MusterStore

extension ControlHandler {
    /// A walk-in's registration: refused in words for a blank name or an implausible email, by the lock's
    /// window and the door rules like any entry; an email already on the list is that attendee's
    /// check-in instead (or its refusal); anyone else gets a new walk-in ticket and is checked in.
    func register(_ walkIn: WalkInRegistration) throws -> ControlResponse {
        let first = TerminalText.sanitize(walkIn.firstName).trimmingWhitespace()
        let last = TerminalText.sanitize(walkIn.lastName).trimmingWhitespace()
        let company = TerminalText.sanitize(walkIn.company).trimmingWhitespace()
        // The one edge rule (``EdgeTrim``): a scanner's or a form's stray mark at either end is no part of the address.
        let email = EdgeTrim.trim(walkIn.email)
        guard !first.isEmpty, !last.isEmpty else { throw RequestError("first and last name are required") }
        guard EmailAddress.isPlausible(email) else {
            throw RequestError("'\(TerminalText.sanitize(email))' is not an email address")
        }
        let now = clock.nowMillis
        return try append { view in
            let window = CheckInPolicy.window(lock: try view.lock(), nowMillis: now)
            guard case .allow(let campaign, let status) = window else { return .answer(Self.refusal(window)) }
            let key = EmailAddress.key(email)
            let presence = presenceTemplate(campaign, key, status)
            let existingRecord = try view.attendee(campaignID: campaign, key: key)
            // The door rules bind walk-ins too (capacity, zone window, entries, re-entry); an
            // invalid or already present registration keeps its own answer below.
            if let refusal = try walkInRefusal(view, campaign: campaign, key: key, existing: existingRecord, now: now) {
                return refusal
            }
            let here = PresenceSummary(atMillis: now, kioskName: config.name, location: config.location)
            if let existing = existingRecord { return Self.registered(existing, presence: presence, here: here) }
            let ticket = TicketCode.walkIn()
            let attendee = AttendeeSummary(
                campaignID: campaign,
                key: key,
                firstName: first,
                lastName: last,
                company: company,
                ticket: ticket
            )
            let payload = RegistrationPayload(
                presence: presence,
                email: email,
                firstName: first,
                lastName: last,
                company: company,
                ticket: ticket
            )
            return .append(
                .registration(payload),
                answer: .registered(WalkInAnswer(ticket: ticket, attendee: attendee, checkIn: here))
            )
        }
    }

    /// A registration of an email already on the list: that attendee, refused when the ticket is not valid,
    /// already in when inside, else checked in `here`.
    static func registered(
        _ existing: AttendeeRecord,
        presence: PresencePayload,
        here: PresenceSummary
    ) -> LocalWrite<ControlResponse> {
        let already = "You are already registered for this event."
        guard existing.admitted else {
            let message = "This registration is not valid for check-in. Please see the staff desk."
            return .answer(.refused(RefusalAnswer(message, attendee: existing.summary)))
        }
        if existing.isInside {
            let answer = AlreadyInAnswer(
                attendee: existing.summary,
                checkIn: existing.firstArrival.map(\.summary),
                message: already
            )
            return .answer(.alreadyCheckedIn(answer))
        }
        let answer = CheckInAnswer(attendee: existing.summary, checkIn: here, message: already)
        return .append(.checkIn(CheckInPayload(presence)), answer: .checkedIn(answer))
    }
}
