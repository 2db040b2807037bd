import MusterControl
import MusterCore

extension KioskScreen {
    /// The daemon's answer to a check-in or a registration, after the person confirmed who they are:
    /// from here the first name may be shown, and a walk-in sees their new ticket code as a QR code.
    mutating func checkedIn(_ response: ControlResponse) -> [Action] {
        switch response.outcome {
        case .checkedIn, .registered:
            misses = 0
            let time = formatTime(response.checkIn?.atMillis ?? clock.wallMillis)
            var lines: [Action] = options.bell ? [.cue(.success)] : []
            lines.append(.show(text(.checkedIn(time: time))))
            if options.largeWelcome { lines += BlockLetters.lines(text(.welcomeWord)).map(Action.show) }
            let first = ScreenName.display(response.attendee?.firstName ?? "", maxCells: 30)
            lines.append(.show(text(.welcome(firstName: first))))
            if response.outcome == .registered, let ticket = response.ticket {
                lines += ticketLines(TerminalText.sanitize(ticket, maxCharacters: 40))
            }
            guard let key = response.attendee?.key else { return lines + finish(.enjoy) }
            if context.printsBadges {
                state = .awaitingBadge(key: key)
                clearAt = nil
                return lines + [.show(text(.badgePrinting)), .printBadge(key: key)]
            }
            state = .noting(key: key)
            clearAt = nil
            return lines + [.prompt(text(.notePrompt))]
        case .alreadyCheckedIn:
            let name = ScreenName.display(
                MaskedName.of(
                    firstName: response.attendee?.firstName ?? "",
                    lastName: response.attendee?.lastName ?? ""
                )
            )
            let time = response.checkIn.map { formatTime($0.atMillis) } ?? "?"
            return finish(.alreadyIn(name: name, time: time), cue: .success)
        case .notFound:
            return finish(.notFound, cue: .failure)
        default:
            if response.errorCode == .rateLimited {
                return finish(.seeStaff(seconds: response.retryAfterSeconds ?? 1), cue: .failure)
            }
            if let code = response.reason, let reason = DoorReason(code: code) {
                switch reason {
                case .notFound: return finish(.notFound, cue: .failure)
                case .notLocked: return finish(.waitingForEvent, cue: .failure)
                default: return finish(.doorRefused(reason), cue: .failure)
                }
            }
            return finish(response.message.map { .refused(detail: safe($0)) } ?? .seeStaffDesk, cue: .failure)
        }
    }

    /// The daemon answered the badge request: say how it went, then offer the guestbook as after any
    /// check-in.
    mutating func badgeAnswered(key: String, printed: KioskMessage) -> [Action] {
        state = .noting(key: key)
        clearAt = nil
        let sound: [Action] = options.bell && printed != .badgePrinted ? [.cue(.failure)] : []
        return sound + [.show(text(printed)), .prompt(text(.notePrompt))]
    }

    /// The line for the daemon's answer to a self-service `badge` request.
    static func badgeMessage(for outcome: ControlResponse.Outcome) -> KioskMessage {
        switch outcome {
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
