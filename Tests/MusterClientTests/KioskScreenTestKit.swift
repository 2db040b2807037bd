import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import MusterTime

@testable import MusterClient

/// Builders shared by the kiosk screen's tests: a screen on a manual clock, the attendees it finds,
/// and views of the actions it returns.
enum ScreenKit {
    typealias Action = KioskScreen.Action

    static let mainPrompt = "Email or ticket code (or 'new' to register): "
    static let notePrompt = "Leave a one-line note for the guestbook (or press Enter to skip): "
    static let confirmPrompt = "Is this you? Check in now? [y/N] "
    static let banner = "== DevConf 2026 · check-in · kiosk Hall A =="
    static let hint = "Language · Sprache · Langue · Idioma · Taal · Język: en de fr es nl pl"

    static func screen(
        campaign: String? = "DevConf 2026",
        refusal: String? = nil,
        kiosk: String = "Hall A",
        printsBadges: Bool = false,
        options: ScreenOptions = ScreenOptions(),
        clock: ManualClock = ManualClock()
    ) -> KioskScreen {
        KioskScreen(
            context: KioskScreen.Context(
                kioskName: kiosk,
                campaignName: campaign,
                refusal: refusal,
                printsBadges: printsBadges
            ),
            options: options,
            clock: clock,
            formatTime: { _ in "09:14" }
        )
    }

    static func ada(
        admitted: Bool = true,
        inAt: UInt64? = nil,
        query: String = "ada@example.com"
    )
        -> KioskScreen.Match
    {
        KioskScreen.Match(query: query, maskedName: "Ada L.", admitted: admitted, checkedInAtMillis: inAt)
    }

    static func summary(
        first: String = "Ada",
        last: String = "Lovelace",
        company: String = "Analytical"
    )
        -> AttendeeSummary
    {
        .sample(first: first, last: last, company: company, ticket: "MUS-1")
    }

    /// The daemon's answer to Ada's check-in (`checkedIn`) or to a check-in of someone inside already
    /// (`alreadyCheckedIn`, here at `presence`), as the screen is told it.
    static func checkedIn(
        _ attendee: AttendeeSummary = summary(),
        outcome: ControlResponse.Outcome = .checkedIn,
        presence: PresenceSummary = PresenceSummary(atMillis: 1_000, kioskName: "Hall A", location: "North door"),
        message: String? = nil
    ) -> ScreenAnswer {
        guard outcome == .checkedIn else {
            let already = AlreadyInAnswer(attendee: attendee, checkIn: presence, message: message)
            return ScreenAnswer(.alreadyCheckedIn(already), handles: .test)
        }
        return ScreenAnswer(
            .checkedIn(CheckInAnswer(attendee: attendee, checkIn: presence, message: message)),
            handles: .test
        )
    }

    /// A refusal as the screen is told it.
    static func refused(_ message: String, reason: DoorReason? = nil) -> ScreenAnswer {
        ScreenAnswer(.refused(RefusalAnswer(message, reason: reason)), handles: .test)
    }

    /// Drives `s` through Ada's check-in: looked up, confirmed with "y", and answered with `answer`;
    /// returns what the answer shows (the welcome and the note prompt).
    @discardableResult
    static func checkInAda(_ s: inout KioskScreen, answer: ScreenAnswer = checkedIn()) -> [KioskScreen.Action] {
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ada())))
        _ = s.handle(.line("y"))
        return s.handle(.answered(answer))
    }

    static func registered(ticket: String = "W-ABCD1234") -> ScreenAnswer {
        let attendee = AttendeeSummary.sample(
            key: "linus@walkin.example",
            first: "Linus",
            last: "Walker",
            company: "Kernel Co",
            ticket: ticket
        )
        let presence = PresenceSummary(atMillis: 5, kioskName: "Hall A", location: "")
        return ScreenAnswer(
            .registered(WalkInAnswer(ticket: ticket, attendee: attendee, checkIn: presence)),
            handles: .test
        )
    }

    static func shown(_ actions: [Action]) -> [String] {
        actions.compactMap { if case .show(let text) = $0 { text } else { nil } }
    }

    static func prompts(_ actions: [Action]) -> [String] {
        actions.compactMap { if case .prompt(let text) = $0 { text } else { nil } }
    }

    static func texts(_ actions: [Action]) -> [String] {
        actions.compactMap { action in
            switch action {
            case .show(let text), .prompt(let text): text
            default: nil
            }
        }
    }

    static func isLookup(_ action: Action) -> Bool {
        if case .lookup = action { true } else { false }
    }

    static func isCheckIn(_ action: Action) -> Bool {
        if case .checkIn = action { true } else { false }
    }

    /// The start screen after a wipe: the clear, the banner and the main prompt.
    static let wipedToStart: [Action] = [.clear, .show(banner), .show(hint), .prompt(mainPrompt)]
}
