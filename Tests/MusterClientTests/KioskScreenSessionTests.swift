import MusterControl
import MusterCore
import MusterRules
import Testing

@testable import MusterClient

/// The public screen at a session door (issue 36): the session's name and end under the banner, a
/// spot's code first when one is open, attendance instead of check-in, the person's own outcome only.
@Suite("KioskScreen: session doors")
struct KioskScreenSessionTests {
    typealias Kit = ScreenKit

    static func door(session: String? = "Swift on Linux", spotOpen: Bool = false) -> (KioskScreen, [Kit.Action]) {
        var screen = Kit.screen()
        var context = screen.context
        context.sessionDoor = true
        context.session = session
        context.sessionUntilMillis = session == nil ? nil : 1_800_000_000_000
        context.spotOpen = spotOpen
        let shown = screen.update(context: context)
        return (screen, shown)
    }

    @Test func theBannerSaysWhichSessionAndUntilWhenOrThatNoneIsOpen() {
        let (_, open) = Self.door()
        #expect(Kit.shown(open).contains("Checking in to: Swift on Linux, until 09:14"))
        let (_, between) = Self.door(session: nil)
        #expect(Kit.shown(between).contains(KioskCatalog.text(.betweenSessions, in: .english)))
    }

    @Test func aConfirmedScanIsAttendanceAndTheOutcomeNamesOnlyTheSessionAndTheFirstName() {
        var (screen, _) = Self.door()
        #expect(screen.handle(.line("ada@example.com")) == [.lookup("ada@example.com")])
        // Inside the venue already is the rule at a session door, not an answer.
        let asked = screen.handle(.lookedUp(.found(Kit.ada(inAt: 1))))
        #expect(Kit.prompts(asked) == [Kit.confirmPrompt])
        #expect(screen.handle(.line("y")) == [.attend(query: "ada@example.com", code: nil)])
        let answer = ScreenAnswer(
            .attended(
                AttendanceAnswer(
                    attendee: Kit.summary(),
                    session: "Swift on Linux",
                    sessionID: "s-1",
                    direction: .entered,
                    at: PresenceSummary(atMillis: 1, kioskName: "k1", location: "Lab")
                )
            ),
            handles: .test
        )
        let shown = Kit.shown(screen.handle(.answered(answer)))
        #expect(shown.contains("Checked in to Swift on Linux. Welcome, Ada!"))
        #expect(!shown.contains { $0.contains("Lovelace") || $0.contains("k1") })
    }

    @Test func aSpotsCodeComesFirstThenTheEmail() {
        var (screen, _) = Self.door(session: nil, spotOpen: true)
        let asked = screen.handle(.line("031234"))
        #expect(Kit.prompts(asked) == [KioskCatalog.text(.spotCodeTaken, in: .english)])
        #expect(screen.handle(.line("ada@example.com")) == [.lookup("ada@example.com")])
        _ = screen.handle(.lookedUp(.found(Kit.ada())))
        #expect(screen.handle(.line("j")) == [.attend(query: "ada@example.com", code: "031234")])
        let refused = Kit.shown(
            screen.handle(.answered(Kit.refused("No open session has this code.", reason: .wrongCode)))
        )
        #expect(refused.contains(KioskCatalog.text(.doorRefused(.wrongCode), in: .english)))
        // The code was this person's only: the next person starts afresh (the screen wiped first).
        #expect(screen.handle(.line("grace@example.com")).last == .lookup("grace@example.com"))
        _ = screen.handle(.lookedUp(.found(Kit.ada(query: "grace@example.com"))))
        #expect(screen.handle(.line("y")) == [.attend(query: "grace@example.com", code: nil)])
    }

    @Test func sixDigitsAreATicketWhereNoSpotIsOpen() {
        var (screen, _) = Self.door(spotOpen: false)
        #expect(screen.handle(.line("031234")) == [.lookup("031234")])
    }
}
