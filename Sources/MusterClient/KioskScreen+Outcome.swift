import MusterControl
import MusterCore

extension KioskScreen {
    /// The daemon's answer to a check-in or a registration, after the person confirmed who they are:
    /// from here the first name may be shown, and a walk-in sees their new ticket code as a QR code.
    mutating func checkedIn(_ answer: ScreenAnswer) -> [Action] {
        switch answer {
        case .checkedIn(let welcome):
            return welcomed(welcome, ticket: nil)
        case .registered(let welcome, let ticket):
            return welcomed(welcome, ticket: ticket)
        case .alreadyCheckedIn(let already):
            let name = ScreenName.display(
                MaskedName.of(firstName: already.attendee.firstName, lastName: already.attendee.lastInitial)
            )
            var time = "?"
            if let at = already.atMillis { time = formatTime(at) }
            return finish(.alreadyIn(name: name, time: time), cue: .success)
        case .attended(let attendee, let session, let direction):
            misses = 0
            let name = ScreenName.display(session, maxCells: 50)
            guard direction == .entered else { return finish(.leftSession(session: name), cue: .success) }
            let first = ScreenName.display(attendee.firstName, maxCells: 30)
            return finish(.attended(session: name, firstName: first), cue: .success)
        case .notFound:
            return finish(.notFound, cue: .failure)
        case .refused(let refusal):
            return refused(refusal.message, reason: refusal.reason)
        case .failure(let failure):
            if let seconds = failure.retryAfter { return finish(.seeStaff(seconds: seconds), cue: .failure) }
            return refused(failure.message)
        case .context, .found, .noted, .badgePrinted, .badgeNotPrinted, .badgeAlreadyPrinted, .redeemed,
            .partyCheckedIn:
            // Not an answer to a check-in: whatever words it has, else the staff desk.
            return refused(answer.message)
        }
    }

    /// An add-on desk's answer: handed out (with the first name), or why not in the person's language.
    mutating func redeemed(_ answer: ScreenAnswer) -> [Action] {
        switch answer {
        case .redeemed(let attendee, let addon):
            misses = 0
            let first = ScreenName.display(attendee.firstName, maxCells: 30)
            return finish(.handedOut(addon: safe(addon), firstName: first), cue: .success)
        case .notFound:
            return missed()
        case .refused(let refusal):
            return refused(refusal.message, reason: refusal.reason)
        case .failure(let failure):
            if let seconds = failure.retryAfter { return finish(.seeStaff(seconds: seconds), cue: .failure) }
            return refused(failure.message)
        default:
            return refused(answer.message)
        }
    }

    /// Checked in: the time, the welcome by first name, a walk-in's ticket, then the badge or the note.
    mutating func welcomed(_ welcome: ScreenWelcome, ticket: String?) -> [Action] {
        misses = 0
        var lines: [Action] = options.bell ? [.cue(.success)] : []
        lines.append(.show(text(.checkedIn(time: formatTime(welcome.atMillis)))))
        if options.largeWelcome { lines += BlockLetters.lines(text(.welcomeWord)).map(Action.show) }
        let first = ScreenName.display(welcome.attendee.firstName, maxCells: 30)
        lines.append(.show(text(.welcome(firstName: first))))
        if let ticket { lines += ticketLines(TerminalText.sanitize(ticket, maxCharacters: 40)) }
        let key = welcome.attendee.handle
        if let waiting = welcome.party, waiting > 0, let query = partyQuery {
            // A count, never who: the screen shows nobody but the person standing at it.
            state = .partyQuestion(query: query, key: key)
            clearAt = nil
            return lines + [.prompt(text(.partyPrompt(count: waiting)))]
        }
        return lines + afterWelcome(key: key)
    }

    /// After the welcome (and the party, if any): the badge, else the guestbook note.
    mutating func afterWelcome(key: String) -> [Action] {
        clearAt = nil
        if context.printsBadges {
            state = .awaitingBadge(key: key)
            return [.show(text(.badgePrinting)), .printBadge(key: key)]
        }
        state = .noting(key: key)
        return [.prompt(text(.notePrompt))]
    }

    /// The rest of the order checked in: how many went in, how many need the staff desk.
    mutating func partyAnswered(_ answer: ScreenAnswer, key: String) -> [Action] {
        guard case .partyCheckedIn(let party) = answer else {
            return [.show(text(.partyNotCheckedIn))] + afterWelcome(key: key)
        }
        var lines: [Action] = [.show(text(.partyCheckedIn(count: party.admitted)))]
        if party.refused > 0 { lines.append(.show(text(.partySeeStaff(count: party.refused)))) }
        return lines + afterWelcome(key: key)
    }

    /// A refused check-in: said from the door's stable reason when there is one (in the attendee's
    /// language), else in the daemon's words, else the staff desk.
    mutating func refused(_ message: String?, reason: DoorReason? = nil) -> [Action] {
        switch reason {
        case .notFound?: return finish(.notFound, cue: .failure)
        case .notLocked?: return finish(.waitingForEvent, cue: .failure)
        case let reason?: return finish(.doorRefused(reason), cue: .failure)
        case nil: break
        }
        guard let message else { return finish(.seeStaffDesk, cue: .failure) }
        return finish(.refused(detail: safe(message)), cue: .failure)
    }

    /// The daemon answered the badge request: say how it went, then offer the guestbook as after any
    /// check-in.
    mutating func badgeAnswered(key: String, printed: KioskMessage) -> [Action] {
        state = .noting(key: key)
        clearAt = nil
        let sound: [Action] = options.bell && !printed.isBadgePrinted ? [.cue(.failure)] : []
        return sound + [.show(text(printed)), .prompt(text(.notePrompt))]
    }

    /// The line for the daemon's answer to a self-service `badge` request.
    static func badgeMessage(for answer: ScreenAnswer) -> KioskMessage {
        switch answer {
        case .badgePrinted(_, _, let at?):
            // The peer's name is the organizer's words, but it came over the wire: made safe to show.
            .badgePrintedAt(place: ScreenName.display(at, maxCells: 30))
        case .badgePrinted: .badgePrinted
        case .badgeAlreadyPrinted: .badgeAlreadyPrinted
        default: .badgeNotPrinted
        }
    }

    /// The walk-in's ticket: a QR code to scan at re-entry (when it fits the terminal's width), and
    /// the code in words under it, so it can be read aloud, typed or copied by hand.
    func ticketLines(_ ticket: String) -> [Action] {
        var lines: [Action] = []
        if let code = try? QRCode(text: ticket, errorCorrection: .medium) {
            let art = code.terminalText(quietZone: 2).split(separator: "\n").map(String.init)
            if art.allSatisfy({ TerminalCells.width(of: $0) <= options.columns }) {
                lines.append(.show(text(.scanAtReEntry)))
                lines += art.map(Action.show)
            }
        }
        lines.append(.show(text(.ticketCode(ticket))))
        return lines
    }
}
