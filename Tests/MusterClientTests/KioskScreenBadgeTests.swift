import MusterControl
import MusterRules
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

/// The badge step of the self-service screen (issue 15): after an acknowledged check-in, a kiosk
/// with a printer asks for the badge and says in words what happened; the check-in stands either way.
@Suite("KioskScreen: badges")
struct KioskScreenBadgeTests {
    typealias Kit = ScreenKit

    /// A screen that has just been told the check-in succeeded.
    static func checkedIn(
        printsBadges: Bool,
        options: ScreenOptions = ScreenOptions(),
        clock: ManualClock = ManualClock()
    ) -> (KioskScreen, [KioskScreen.Action]) {
        var screen = Kit.screen(printsBadges: printsBadges, options: options, clock: clock)
        _ = screen.handle(.started)
        _ = screen.handle(.line("ada@example.com"))
        _ = screen.handle(.lookedUp(.found(Kit.ada())))
        _ = screen.handle(.line("y"))
        let actions = screen.handle(.answered(Kit.checkedIn()))
        return (screen, actions)
    }

    static func english(_ message: KioskMessage) -> String { KioskCatalog.text(message, in: .english) }

    @Test func aKioskWithAPrinterAsksForTheBadgeAfterTheCheckIn() {
        let (_, actions) = Self.checkedIn(printsBadges: true)
        #expect(actions.contains(.show(Self.english(.badgePrinting))))
        #expect(actions.last == .printBadge(key: ScreenHandles.test.handle(for: "ada@example.com")))
        #expect(actions.contains(.show(Self.english(.checkedIn(time: "09:14")))))
    }

    @Test func aKioskWithoutAPrinterGoesStraightToTheNote() {
        let (_, actions) = Self.checkedIn(printsBadges: false)
        #expect(!actions.contains(.printBadge(key: ScreenHandles.test.handle(for: "ada@example.com"))))
        #expect(actions.last == .prompt(Kit.notePrompt))
    }

    static let ada = ScreenAttendee(.sample(), handles: .test)

    @Test(arguments: [
        (ScreenAnswer.badgePrinted(ada, job: 7), KioskMessage.badgePrinted),
        // Printed on the neighbour (`[badge] fallback`): where to collect it, the name made safe to show.
        (.badgePrinted(ada, job: 7, at: "Desk B\u{1B}[2J\u{202E}"), .badgePrintedAt(place: "Desk B")),
        (.badgeNotPrinted(ada, message: "No printer is configured on this kiosk."), .badgeNotPrinted),
        (.badgeAlreadyPrinted(ada, message: "A badge was already printed."), .badgeAlreadyPrinted),
        (.failure(ControlFailure(.storage, "disk full")), .badgeNotPrinted),
    ])
    func theOutcomeIsSaidInWords(answer: ScreenAnswer, message: KioskMessage) {
        var (screen, _) = Self.checkedIn(printsBadges: true)
        let actions = screen.handle(.answered(answer))
        #expect(actions == [.show(Self.english(message)), .prompt(Kit.notePrompt)])
        // The note still follows: the check-in stands whatever the printer did.
        #expect(
            screen.handle(.line("Great!")) == [
                .note(key: ScreenHandles.test.handle(for: "ada@example.com"), text: "Great!")
            ]
        )
    }

    @Test func noAnswerFromTheDaemonSendsToStaff() {
        var (screen, _) = Self.checkedIn(printsBadges: true)
        let actions = screen.handle(.failed("timed out"))
        #expect(actions == [.show(Self.english(.badgeNotPrinted)), .prompt(Kit.notePrompt)])
        #expect(Self.english(.badgeNotPrinted).contains("staff desk"))
    }

    /// With the bell on, a badge that did not print rings the failure cue besides the words.
    @Test func aFailedBadgeRingsTheFailureCue() {
        let options = ScreenOptions().with(\.bell, true)
        var (screen, _) = Self.checkedIn(printsBadges: true, options: options)
        let notPrinted = ScreenAnswer.badgeNotPrinted(Self.ada, message: "The queue is stopped.")
        #expect(screen.handle(.answered(notPrinted)).first == .cue(.failure))
    }

    /// The badge lines are translated like every other line of the screen.
    @Test func theBadgeLinesAreTranslated() {
        for message in [
            KioskMessage.badgePrinting, .badgePrinted, .badgePrintedAt(place: "Desk B"), .badgeNotPrinted,
            .badgeAlreadyPrinted,
        ] {
            let english = Self.english(message)
            for language in ScreenLanguage.allCases where language != .english {
                #expect(KioskCatalog.text(message, in: language) != english, "\(message) in \(language)")
            }
        }
    }

    /// The guestbook question after the badge still gives up on its own: the next person never
    /// inherits it.
    @Test func theQuestionAfterTheBadgeTimesOut() async {
        let clock = ManualClock()
        var (screen, _) = Self.checkedIn(printsBadges: true, clock: clock)
        _ = screen.handle(.answered(.badgePrinted(Self.ada, job: 7)))
        clock.advance(by: screen.options.idleTimeout + .seconds(1))
        let actions = screen.handle(.tick)
        #expect(actions.first == .clear)
        #expect(screen.handle(.line("y")) == [.lookup("y")])
    }
}
