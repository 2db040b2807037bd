public import MusterControl
public import MusterCore
public import MusterStore

/// The self check-in screen's flow as a pure state machine: it takes what the attendee typed and
/// what the replica and daemon answered, and returns what to show and what to do next. The I/O
/// loop (``KioskSession``) only carries the actions out, so every path is testable without a
/// terminal, a socket or a database.
///
/// Nothing typed here can change the campaign or leave the screen: the only inputs are an email or
/// ticket code, `new`, yes/no, registration fields and a note.
public struct KioskScreen: Sendable {
    /// The campaign the kiosk is locked to, as the replica says.
    public struct Context: Sendable, Equatable {
        public var kioskName: String
        public var campaignName: String?
        public var refusal: String?
        /// This kiosk has a badge printer: a check-in is followed by a badge (issue 15).
        public var printsBadges: Bool

        public init(kioskName: String, campaignName: String?, refusal: String?, printsBadges: Bool = false) {
            self.kioskName = kioskName
            self.campaignName = campaignName
            self.refusal = refusal
            self.printsBadges = printsBadges
        }
    }

    /// The answer of a lookup in the replica.
    public enum LookupResult: Sendable, Equatable {
        case found(AttendeeSummary, alreadyIn: PresenceSummary?, admitted: Bool)
        case notFound
        case refused(String)
    }

    public struct Draft: Sendable, Equatable {
        public var firstName = ""
        public var lastName = ""
        public var email = ""
        public var company = ""
    }

    enum Field: Sendable, Equatable { case firstName, lastName, email, company }

    enum State: Sendable, Equatable {
        case idle
        case awaitingLookup
        case confirming(AttendeeSummary)
        case awaitingCheckIn
        case registering(Draft, Field)
        case awaitingRegistration
        case noting(key: String, firstName: String)
        case awaitingNote
        /// Checked in (acknowledged); the daemon is printing the badge.
        case awaitingBadge(key: String, firstName: String)
    }

    public enum Action: Sendable, Equatable {
        /// Print a line (already sanitized).
        case show(String)
        /// Print a prompt and wait for a line.
        case prompt(String)
        case lookup(String)
        case checkIn(key: String)
        case register(Draft)
        case note(key: String, text: String)
        /// Ask the daemon for the badge of an attendee just checked in (self-service).
        case printBadge(key: String)
    }

    public enum Event: Sendable, Equatable {
        case started
        case line(String)
        case lookedUp(LookupResult)
        case answered(ControlResponse)
        /// The daemon could not be reached or did not answer.
        case failed(String)
    }

    private(set) var state: State = .idle
    public private(set) var context: Context
    /// Formats times for display; injected so tests do not depend on the time zone.
    let formatTime: @Sendable (UInt64) -> String

    public init(context: Context, formatTime: @escaping @Sendable (UInt64) -> String) {
        self.context = context
        self.formatTime = formatTime
    }

    static let mainPrompt = "Email or ticket code (or 'new' to register): "
    static let notePrompt = Action.prompt("Leave a one-line note for the guestbook (or press Enter to skip): ")

    /// Called before every input with the latest lock, so a new lock takes effect at once.
    public mutating func update(context new: Context) -> [Action] {
        guard new != context else { return [] }
        context = new
        state = .idle
        return [.show("")] + banner() + [.prompt(Self.mainPrompt)]
    }

    public mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (_, .started):
            state = .idle
            return banner() + [.prompt(Self.mainPrompt)]
        case (.idle, .line(let text)):
            return idleInput(text)
        case (.awaitingLookup, .lookedUp(let result)):
            return lookedUp(result)
        case (.confirming(let attendee), .line(let text)):
            guard Self.isYes(text) else {
                state = .idle
                return [.show("Not checked in."), .prompt(Self.mainPrompt)]
            }
            state = .awaitingCheckIn
            return [.checkIn(key: attendee.key)]
        case (.awaitingCheckIn, .answered(let response)), (.awaitingRegistration, .answered(let response)):
            return checkedIn(response)
        case (.registering(var draft, let field), .line(let text)):
            return registrationInput(&draft, field: field, text: text)
        case (.noting(let key, _), .line(let text)):
            let note = text.trimmingWhitespace()
            guard !note.isEmpty else { return finish("Enjoy the event!") }
            state = .awaitingNote
            return [.note(key: key, text: String(note.prefix(Limits.maxNoteCharacters)))]
        case (.awaitingBadge(let key, let first), .answered(let response)):
            state = .noting(key: key, firstName: first)
            return [.show(BadgeScreenText.line(for: response)), Self.notePrompt]
        case (.awaitingBadge(let key, let first), .failed):
            // The check-in stands; only the badge is missing.
            state = .noting(key: key, firstName: first)
            return [.show(BadgeScreenText.notPrinted), Self.notePrompt]
        case (.awaitingNote, .answered(let response)):
            return finish(
                response.outcome == .noted
                    ? "Thank you, your note is in the guestbook." : safe(response.message ?? "The note was not saved.")
            )
        case (_, .failed(let message)):
            return finish("Sorry, something went wrong: \(safe(message)). Please see the staff desk.")
        default:
            // An answer that arrives in the wrong state, or a line while waiting: ignore it and re-prompt.
            return state == .idle ? [.prompt(Self.mainPrompt)] : []
        }
    }

    private func banner() -> [Action] {
        let kiosk = safe(context.kioskName)
        guard let campaign = context.campaignName else {
            return [
                .show("== Muster · kiosk \(kiosk) =="),
                .show("This kiosk is waiting for the organizer to pick the event."),
            ]
        }
        var lines: [Action] = [.show("== \(safe(campaign)) · check-in · kiosk \(kiosk) ==")]
        if let refusal = context.refusal { lines.append(.show(safe(refusal))) }
        return lines
    }

    private mutating func idleInput(_ text: String) -> [Action] {
        let query = text.trimmingWhitespace()
        if query.isEmpty { return [.prompt(Self.mainPrompt)] }
        guard context.campaignName != nil else {
            return [.show("This kiosk is waiting for the organizer to pick the event."), .prompt(Self.mainPrompt)]
        }
        if let refusal = context.refusal { return [.show(safe(refusal)), .prompt(Self.mainPrompt)] }
        if query.lowercased() == "new" {
            state = .registering(Draft(), .firstName)
            return [.show("Walk-in registration (leave the first name empty to cancel)."), .prompt("First name: ")]
        }
        state = .awaitingLookup
        return [.lookup(query)]
    }

    private mutating func lookedUp(_ result: LookupResult) -> [Action] {
        switch result {
        case .notFound:
            return finish("Sorry, no ticket or email matches. Check the spelling, or type 'new' to register.")
        case .refused(let message):
            return finish(safe(message))
        case .found(let attendee, let alreadyIn, let admitted):
            let who = describe(attendee)
            guard admitted else {
                return finish("\(who): this ticket is not valid for check-in. Please see the staff desk.")
            }
            if let alreadyIn { return finish("\(who) is already checked in \(describe(alreadyIn)).") }
            state = .confirming(attendee)
            return [.show("Found: \(who)"), .prompt("Is this you? Check in now? [y/N] ")]
        }
    }

    private mutating func checkedIn(_ response: ControlResponse) -> [Action] {
        let who = response.attendee.map(describe) ?? "You"
        switch response.outcome {
        case .checkedIn, .registered:
            var lines: [Action] = []
            if let message = response.message { lines.append(.show(safe(message))) }
            let first = safe(response.attendee?.firstName ?? "")
            lines.append(
                .show(
                    "Welcome\(first.isEmpty ? "" : ", \(first)")! You are checked in\(response.checkIn.map { " at \(formatTime($0.atMillis))" } ?? "")."
                )
            )
            if response.outcome == .registered, let ticket = response.ticket {
                lines.append(.show("Your ticket code is \(safe(ticket)). Keep it for re-entry."))
            }
            guard let key = response.attendee?.key else { return lines + finish("Enjoy the event!") }
            if context.printsBadges {
                state = .awaitingBadge(key: key, firstName: first)
                return lines + [.show(BadgeScreenText.printing), .printBadge(key: key)]
            }
            state = .noting(key: key, firstName: first)
            return lines + [Self.notePrompt]
        case .alreadyCheckedIn:
            return finish("\(who) is already checked in\(response.checkIn.map { " " + describe($0) } ?? "").")
        case .notFound:
            return finish("Sorry, no ticket or email matches.")
        default:
            return finish(safe(response.message ?? "Not checked in. Please see the staff desk."))
        }
    }

    private mutating func registrationInput(_ draft: inout Draft, field: Field, text: String) -> [Action] {
        let value = TerminalText.sanitize(text).trimmingWhitespace()
        switch field {
        case .firstName:
            guard !value.isEmpty else { return finish("Registration cancelled.") }
            draft.firstName = value
            state = .registering(draft, .lastName)
            return [.prompt("Last name: ")]
        case .lastName:
            guard !value.isEmpty else { return [.prompt("Last name (required): ")] }
            draft.lastName = value
            state = .registering(draft, .email)
            return [.prompt("Email: ")]
        case .email:
            guard EmailAddress.isPlausible(value) else {
                return [.show("That does not look like an email address."), .prompt("Email: ")]
            }
            draft.email = value
            state = .registering(draft, .company)
            return [.prompt("Company (optional): ")]
        case .company:
            draft.company = value
            state = .awaitingRegistration
            return [.register(draft)]
        }
    }

    private mutating func finish(_ message: String) -> [Action] {
        state = .idle
        return [.show(message), .show(""), .prompt(Self.mainPrompt)]
    }

    private func describe(_ attendee: AttendeeSummary) -> String {
        let name = safe([attendee.firstName, attendee.lastName].filter { !$0.isEmpty }.joined(separator: " "))
        let company = safe(attendee.company)
        return company.isEmpty ? name : "\(name) (\(company))"
    }

    private func describe(_ presence: PresenceSummary) -> String {
        let place = safe(presence.location).isEmpty ? "" : " (\(safe(presence.location)))"
        return "at \(formatTime(presence.atMillis)) at kiosk \(safe(presence.kioskName))\(place)"
    }

    private func safe(_ text: String) -> String { TerminalText.sanitize(text) }

    static func isYes(_ text: String) -> Bool {
        ["y", "yes", "j", "ja", "o", "oui", "s", "si", "sí"].contains(text.trimmingWhitespace().lowercased())
    }
}
