public import MusterControl
import MusterCore
public import MusterRules
public import MusterTime

/// The self check-in screen's flow as a pure state machine: it takes what the attendee typed, what the
/// daemon answered and the passing of time, and returns what to show and what to do next. The I/O loop
/// (``KioskSession``) only carries the actions out, so every path is testable without a terminal, a
/// socket or a real clock (time comes from the injected ``TimeSource``; tests use `ManualClock`).
///
/// The screen stands in a public hallway, so privacy is part of the flow, not the driver:
/// - before the attendee confirms, only a masked name ("Ada L."), never the company;
/// - an outcome is cleared ``ScreenOptions/outcomeTimeout`` after it was shown, and any question left
///   open for ``ScreenOptions/idleTimeout`` returns to the start, so nobody inherits a prompt;
/// - repeated not-found answers make the screen wait, longer each time, and send the person to staff;
/// - "already checked in" says when, never where.
///
/// Nothing typed here can change the campaign or leave the screen: the only inputs are an email or
/// ticket code, `new`, a language code, yes/no, registration fields and a note.
public struct KioskScreen: Sendable {
    /// The campaign the kiosk is locked to, as the daemon says.
    public struct Context: Sendable, Equatable {
        public var kioskName: String
        public var campaignName: String?
        public var refusal: String?
        /// This kiosk has a badge printer: a check-in is followed by a badge (issue 15).
        public var printsBadges = false
        /// The language the organizer's lock sets; nil when it sets none (or one this screen does not
        /// speak). It overrides the kiosk's `[screen] language`; an attendee's own choice overrides it.
        public var language: ScreenLanguage?
        /// This kiosk works alone: a staff line under the banner, nothing of any attendee in it.
        public var solitude: Solitude?
        /// A session door (issue 36): a confirmed scan is attendance of the session open now.
        public var sessionDoor = false
        /// The session open now and when it ends, for the line under the banner.
        public var session: String?
        public var sessionUntilMillis: Int64?
        /// A spot is open in this zone: six digits typed at the start are its code.
        public var spotOpen = false
    }

    /// What a lookup tells the screen about one attendee: no more than it may show before confirmation.
    public struct Match: Sendable, Equatable {
        /// What was typed; the check-in that follows a "yes" sends it again, so the screen never holds a key.
        public var query: String
        public var maskedName: String
        public var admitted: Bool
        /// When the attendee first arrived, if they are inside already.
        public var checkedInAtMillis: UInt64?
    }

    /// The answer of a lookup.
    public enum LookupResult: Sendable, Equatable {
        case found(Match)
        case notFound
        case refused(String)
        /// musterd refused to look up (too many misses from this screen's user lately): see staff, and
        /// try again after this many seconds.
        case throttled(seconds: Int)
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
        /// A spot's code was typed: now the email or ticket code.
        case spotQuery(code: String)
        case awaitingLookup
        case confirming(Match)
        case awaitingCheckIn
        /// An add-on desk asked the daemon to hand the add-on out.
        case awaitingRedemption
        /// Checked in, and others of their order are not inside yet: check them in too?
        case partyQuestion(query: String, key: String)
        case awaitingParty(key: String)
        case registering(Draft, Field)
        /// `new` with an email: is it on the list already?
        case checkingEmail(Draft)
        case awaitingRegistration
        case noting(key: String)
        case awaitingNote
        /// Checked in (acknowledged first); the daemon prints the badge.
        case awaitingBadge(key: String)
        /// After too many misses: lines typed now are dropped until the wait is over.
        case backingOff

        /// A question to one person, which gives up after the idle timeout.
        var isQuestion: Bool {
            switch self {
            case .confirming, .registering, .noting, .partyQuestion, .spotQuery: true
            default: false
            }
        }
    }

    /// A sound that goes with an outcome's words (never instead of them).
    public enum Cue: Sendable, Equatable { case success, failure }

    public enum Action: Sendable, Equatable {
        /// Print a line (already sanitized).
        case show(String)
        /// Print a prompt and wait for a line.
        case prompt(String)
        /// Scroll everything shown so far off the screen.
        case clear
        case cue(Cue)
        case lookup(String)
        case checkIn(query: String)
        /// A session door, or a spot's code typed first: attendance (issue 36).
        case attend(query: String, code: String?)
        /// Check in the rest of the order of the attendee `query` names (after they said yes).
        case checkInParty(query: String)
        /// An add-on desk: hand ``ScreenOptions/redeem`` out to whoever `query` names.
        case redeem(addon: String, query: String)
        case register(Draft)
        case note(key: String, text: String)
        /// Ask the daemon for the badge of the attendee just checked in (self-service).
        case printBadge(key: String)
    }

    public enum Event: Sendable, Equatable {
        case started
        case line(String)
        case lookedUp(LookupResult)
        case answered(ScreenAnswer)
        /// The daemon could not be reached or did not answer.
        case failed(String)
        /// Time passed: the driver sends it whenever it has waited, and before each line it read.
        case tick
    }

    var state: State = .idle
    public private(set) var context: Context
    public let options: ScreenOptions
    let clock: any TimeSource
    /// Formats times for display; injected so tests do not depend on the time zone.
    let formatTime: @Sendable (UInt64) -> String
    /// The language this person chose by typing its code; nil means the lock's, else the kiosk's.
    var turnLanguage: ScreenLanguage?
    /// When the outcome on screen is wiped; nil when nothing private is shown.
    var clearAt: Duration?
    /// When the open question gives up.
    var questionExpiresAt: Duration?
    /// When the wait after repeated misses ends.
    var resumeAt: Duration?
    var misses = 0
    var lastMissAt: Duration?
    /// What the person now checking in typed, for the rest of their order (their own code, never a key).
    var partyQuery: String?
    /// The spot's code typed at the start of this person's turn.
    var spotCode: String?

    public init(
        context: Context,
        options: ScreenOptions = ScreenOptions(),
        clock: any TimeSource,
        formatTime: @escaping @Sendable (UInt64) -> String
    ) {
        self.context = context
        self.options = options
        self.clock = clock
        self.formatTime = formatTime
    }

    /// The language the screen speaks now: the attendee's own choice for their turn, else the lock's,
    /// else the kiosk's. At the next person it is the lock's (else the kiosk's) again.
    public var language: ScreenLanguage { turnLanguage ?? context.language ?? options.language }

    /// The earliest moment the screen wants a ``Event/tick``, so the driver knows how long it may wait.
    public var nextDeadline: Duration? { [clearAt, questionExpiresAt, resumeAt].compactMap { $0 }.min() }

    func text(_ message: KioskMessage) -> String { KioskCatalog.text(message, in: language) }

    var mainPrompt: Action { .prompt(text(.mainPrompt)) }

    /// Called before every input with the latest lock, so a new lock takes effect at once.
    ///
    /// Working alone, or no longer, is redrawn only between people: a person in the middle of their
    /// turn keeps it, and the next banner carries the line.
    public mutating func update(context new: Context) -> [Action] {
        guard new != context else { return [] }
        var before = context
        before.solitude = new.solitude
        context = new
        if before == new, state != .idle { return [] }
        return [.show("")] + startOver()
    }

    public mutating func handle(_ event: Event) -> [Action] {
        let before = state
        let actions = step(event)
        if state.isQuestion {
            if case .line = event {
                questionExpiresAt = clock.uptime + questionTimeout
            } else if state != before {
                questionExpiresAt = clock.uptime + questionTimeout
            }
        } else if state == .idle || state == .backingOff {
            questionExpiresAt = nil
        }
        return actions
    }

    private mutating func step(_ event: Event) -> [Action] {
        switch (state, event) {
        case (_, .started):
            return startOver()
        case (_, .tick):
            return tick()
        case (.backingOff, .line):
            return []
        case (.idle, .line(let text)):
            // A new person: whatever the one before left on screen goes first.
            let wipe: [Action] = clearAt == nil ? [] : [.clear] + banner()
            clearAt = nil
            return wipe + idleInput(text)
        case (.awaitingLookup, .lookedUp(let result)):
            return lookedUp(result)
        case (.checkingEmail(let draft), .lookedUp(let result)):
            return emailChecked(draft, result)
        case (.confirming(let match), .line(let text)):
            guard Self.isYes(text) else { return finish(.notCheckedIn, cue: .failure) }
            state = .awaitingCheckIn
            if context.sessionDoor || spotCode != nil { return [.attend(query: match.query, code: spotCode)] }
            partyQuery = match.query
            return [.checkIn(query: match.query)]
        case (.spotQuery(let code), .line(let text)):
            let query = text.trimmingWhitespace()
            guard !query.isEmpty else { return startOver() }
            spotCode = code
            state = .awaitingLookup
            return [.lookup(query)]
        case (.partyQuestion(let query, let key), .line(let text)):
            guard Self.isYes(text) else { return afterWelcome(key: key) }
            state = .awaitingParty(key: key)
            return [.checkInParty(query: query)]
        case (.awaitingParty(let key), .answered(let answer)):
            return partyAnswered(answer, key: key)
        case (.awaitingParty(let key), .failed):
            // The attendee is in; only the rest of the order is not.
            return [.show(text(.partyNotCheckedIn))] + afterWelcome(key: key)
        case (.awaitingRedemption, .answered(let answer)):
            return redeemed(answer)
        case (.awaitingCheckIn, .answered(let answer)), (.awaitingRegistration, .answered(let answer)):
            return checkedIn(answer)
        case (.registering(var draft, let field), .line(let text)):
            return registrationInput(&draft, field: field, text: text)
        case (.noting(let key), .line(let text)):
            let note = text.trimmingWhitespace()
            guard !note.isEmpty else { return finish(.enjoy) }
            state = .awaitingNote
            return [.note(key: key, text: String(note.prefix(Limits.maxNoteCharacters)))]
        case (.awaitingBadge(let key), .answered(let answer)):
            return badgeAnswered(key: key, printed: Self.badgeMessage(for: answer))
        case (.awaitingBadge(let key), .failed):
            // The check-in stands; only the badge is missing.
            return badgeAnswered(key: key, printed: .badgeNotPrinted)
        case (.awaitingNote, .answered(.noted)):
            return finish(.noteSaved)
        case (.awaitingNote, .answered(let answer)):
            guard let message = answer.message else { return finish(.noteNotSaved) }
            return finish(.refused(detail: safe(message)))
        case (_, .failed(let message)):
            return finish(.failed(detail: safe(message)), cue: .failure)
        default:
            // An answer that arrives in the wrong state, or a line while waiting: ignore it and re-prompt.
            return state == .idle ? [mainPrompt] : []
        }
    }

    /// The start screen in the lock's (else the kiosk's) language, with nothing pending. The misses are kept: starting
    /// over must not reset the back-off.
    mutating func startOver() -> [Action] {
        state = .idle
        turnLanguage = nil
        clearAt = nil
        questionExpiresAt = nil
        partyQuery = nil
        spotCode = nil
        return banner() + [mainPrompt]
    }

    func banner() -> [Action] {
        let kiosk = ScreenName.display(context.kioskName)
        guard let campaign = context.campaignName else {
            return [.show(text(.title(kiosk: kiosk)))] + solitudeLine() + [.show(text(.waitingForEvent))]
        }
        var lines: [Action] = [
            .show(text(.banner(campaign: ScreenName.display(campaign, maxCells: 50), kiosk: kiosk)))
        ]
        lines += solitudeLine()
        lines.append(.show(text(.languageHint)))
        if let addon = options.redeem { lines.append(.show(text(.redeemDesk(addon: safe(addon))))) }
        if let session = context.session, let until = context.sessionUntilMillis {
            let name = ScreenName.display(session, maxCells: 50)
            lines.append(.show(text(.sessionOpen(name: name, until: formatTime(UInt64(clamping: until))))))
        } else if context.sessionDoor {
            lines.append(.show(text(.betweenSessions)))
        }
        if let refusal = context.refusal { lines.append(.show(safe(refusal))) }
        return lines
    }

    /// The staff line of a kiosk that works alone, if it does: since when, and the zone it cannot hear.
    func solitudeLine() -> [Action] {
        guard let solitude = context.solitude else { return [] }
        let zone = solitude.unheardZone.map { ScreenName.display($0, maxCells: 40) }
        return [.show(text(.workingAlone(since: formatTime(solitude.sinceMillis), zone: zone)))]
    }

    mutating func idleInput(_ text: String) -> [Action] {
        let query = text.trimmingWhitespace()
        if query.isEmpty { return [mainPrompt] }
        guard context.campaignName != nil else { return [.show(self.text(.waitingForEvent)), mainPrompt] }
        if let refusal = context.refusal { return [.show(safe(refusal)), mainPrompt] }
        if let chosen = ScreenLanguage(typed: query) {
            turnLanguage = chosen
            return [.show(self.text(.languageChosen)), mainPrompt]
        }
        if let addon = options.redeem {
            // An add-on desk asks nothing else: no walk-ins, no confirmation (the add-on is the ticket's).
            state = .awaitingRedemption
            return [.redeem(addon: addon, query: query)]
        }
        if context.spotOpen, SessionPayload.isSpotCode(query) {
            state = .spotQuery(code: query)
            return [.prompt(self.text(.spotCodeTaken))]
        }
        if query.lowercased() == "new" {
            state = .registering(Draft(), .firstName)
            return [.show(self.text(.registrationStart)), .prompt(self.text(.firstNamePrompt))]
        }
        state = .awaitingLookup
        return [.lookup(query)]
    }

    mutating func lookedUp(_ result: LookupResult) -> [Action] {
        switch result {
        case .notFound:
            return missed()
        case .refused(let message):
            return finish(.refused(detail: safe(message)), cue: .failure)
        case .throttled(let seconds):
            return finish(.seeStaff(seconds: seconds), cue: .failure)
        case .found(let match):
            let who = ScreenName.display(match.maskedName)
            guard match.admitted else { return finish(.notValid(name: who), cue: .failure) }
            // At a session door being inside the venue is the rule, not an answer.
            if let at = match.checkedInAtMillis, !context.sessionDoor, spotCode == nil {
                return finish(.alreadyIn(name: who, time: formatTime(at)), cue: .success)
            }
            state = .confirming(match)
            return [.show(text(.found(name: who))), .prompt(text(.confirmPrompt))]
        }
    }

    /// Ends one person's turn with an outcome in words: the screen returns to the lock's (else the kiosk's) language and
    /// wipes the outcome after the outcome timeout.
    mutating func finish(_ message: KioskMessage, cue: Cue? = nil, before: [Action] = []) -> [Action] {
        let line = text(message)
        state = .idle
        turnLanguage = nil
        partyQuery = nil
        spotCode = nil
        clearAt = clock.uptime + options.outcomeTimeout
        let sound: [Action] = options.bell ? cue.map { [.cue($0)] } ?? [] : []
        return sound + before + [.show(line), .show(""), mainPrompt]
    }

    func safe(_ text: String) -> String { TerminalText.sanitize(text) }

    static func isYes(_ text: String) -> Bool {
        KioskCatalog.yesWords.contains(text.trimmingWhitespace().lowercased())
    }
}
