import MusterControl
import MusterStore
import Testing

@testable import MusterClient

/// The badge step of the self-service screen (issue 15): after an acknowledged check-in, a kiosk
/// with a printer asks for the badge and says in words what happened; the check-in stands either way.
@Suite("KioskScreen: badges")
struct KioskScreenBadgeTests {
    static let attendee = AttendeeSummary(
        campaignID: "c1",
        key: "ada@example.com",
        firstName: "Ada",
        lastName: "Lovelace",
        company: "Analytical",
        ticket: "MUS-1"
    )

    /// A screen that has just been told the check-in succeeded.
    static func checkedIn(printsBadges: Bool) -> (KioskScreen, [KioskScreen.Action]) {
        var screen = KioskScreen(
            context: KioskScreen.Context(
                kioskName: "Hall A",
                campaignName: "DevConf 2026",
                refusal: nil,
                printsBadges: printsBadges
            ),
            formatTime: { _ in "09:14" }
        )
        _ = screen.handle(.started)
        _ = screen.handle(.line("ada@example.com"))
        _ = screen.handle(.lookedUp(.found(attendee, alreadyIn: nil, admitted: true)))
        _ = screen.handle(.line("y"))
        var response = ControlResponse(outcome: .checkedIn)
        response.attendee = attendee
        let actions = screen.handle(.answered(response))
        return (screen, actions)
    }

    @Test func aKioskWithAPrinterAsksForTheBadgeAfterTheCheckIn() {
        let (_, actions) = Self.checkedIn(printsBadges: true)
        #expect(actions.contains(.show(BadgeScreenText.printing)))
        #expect(actions.last == .printBadge(key: "ada@example.com"))
        #expect(actions.contains { if case .show(let text) = $0 { text.contains("checked in") } else { false } })
    }

    @Test func aKioskWithoutAPrinterGoesStraightToTheNote() {
        let (_, actions) = Self.checkedIn(printsBadges: false)
        #expect(!actions.contains(.printBadge(key: "ada@example.com")))
        #expect(actions.last == KioskScreen.notePrompt)
    }

    @Test(arguments: [
        (ControlResponse.Outcome.badgePrinted, BadgeScreenText.printed),
        (.badgeNotPrinted, BadgeScreenText.notPrinted),
        (.badgeAlreadyPrinted, BadgeScreenText.alreadyPrinted),
        (.error, BadgeScreenText.notPrinted),
    ])
    func theOutcomeIsSaidInWords(outcome: ControlResponse.Outcome, line: String) {
        var (screen, _) = Self.checkedIn(printsBadges: true)
        let actions = screen.handle(.answered(ControlResponse(outcome: outcome)))
        #expect(actions == [.show(line), KioskScreen.notePrompt])
        // The note still follows: the check-in stands whatever the printer did.
        #expect(screen.handle(.line("Great!")) == [.note(key: "ada@example.com", text: "Great!")])
    }

    @Test func noAnswerFromTheDaemonSendsToStaff() {
        var (screen, _) = Self.checkedIn(printsBadges: true)
        #expect(screen.handle(.failed("timed out")) == [.show(BadgeScreenText.notPrinted), KioskScreen.notePrompt])
    }

    @Test func theSeeStaffLineSaysSo() {
        #expect(BadgeScreenText.notPrinted.contains("could not be printed"))
        #expect(BadgeScreenText.notPrinted.contains("staff desk"))
    }
}
