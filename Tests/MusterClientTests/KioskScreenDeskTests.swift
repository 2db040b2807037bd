import MusterControl
import MusterCore
import MusterRules
import Testing

@testable import MusterClient

/// The add-on desk (`[screen] redeem`, issue 35): the screen asks for nothing but an email or ticket
/// code, hands the add-on out, and says why not in the attendee's language, never where or when.
@Suite("KioskScreen: add-on desk")
struct KioskScreenDeskTests {
    typealias Kit = ScreenKit

    static func desk() -> KioskScreen {
        var options = ScreenOptions()
        options.redeem = "T-shirt"
        var screen = Kit.screen(options: options)
        _ = screen.handle(.started)
        return screen
    }

    @Test func theBannerSaysWhatTheDeskHandsOut() {
        var options = ScreenOptions()
        options.redeem = "T-shirt"
        var screen = Kit.screen(options: options)
        let banner = screen.handle(.started)
        #expect(banner.contains(.show(KioskCatalog.text(.redeemDesk(addon: "T-shirt"), in: .english))))
    }

    @Test func aCodeIsRedeemedWithoutLookupOrConfirmation() {
        var screen = Self.desk()
        #expect(screen.handle(.line(" MUS-1 ")) == [.redeem(addon: "T-shirt", query: "MUS-1")])
        let answer = ScreenAnswer(.redeemed(Kit.summary(), addon: "T-shirt"), handles: .test)
        let shown = screen.handle(.answered(answer))
        #expect(shown.contains(.show("Handed out: T-shirt. Enjoy, Ada!")))
        #expect(!shown.contains { if case .show(let line) = $0 { line.contains("Lovelace") } else { false } })
    }

    @Test func aRefusalIsSaidInTheAttendeesLanguageWithoutWhereOrWhen() {
        var screen = Self.desk()
        _ = screen.handle(.line("de"))
        _ = screen.handle(.line("MUS-1"))
        let staffWords = "T-shirt was already handed out at 10:14 at k1, Merch."
        let answer = ScreenAnswer(.refused(RefusalAnswer(staffWords, reason: .alreadyRedeemed)), handles: .test)
        let shown = screen.handle(.answered(answer))
        #expect(shown.contains(.show(KioskCatalog.text(.doorRefused(.alreadyRedeemed), in: .german))))
        #expect(!shown.contains { if case .show(let line) = $0 { line.contains("Merch") } else { false } })
    }

    @Test func newAndWalkInsAreNotADesksBusiness() {
        var screen = Self.desk()
        #expect(screen.handle(.line("new")) == [.redeem(addon: "T-shirt", query: "new")])
    }
}

/// Parties on the public screen (issue 35): a count and a yes, never who.
@Suite("KioskScreen: parties")
struct KioskScreenPartyTests {
    typealias Kit = ScreenKit

    @Test func aYesChecksInTheRestOfTheOrderWithTheAttendeesOwnCode() {
        var screen = Kit.screen()
        _ = screen.handle(.started)
        _ = screen.handle(.line("MUS-1"))
        _ = screen.handle(.lookedUp(.found(Kit.ada(query: "MUS-1"))))
        #expect(screen.handle(.line("y")) == [.checkIn(query: "MUS-1")])
        let welcome = CheckInAnswer(
            attendee: Kit.summary(),
            checkIn: PresenceSummary(atMillis: 1_000, kioskName: "Hall A", location: "North door"),
            party: 2
        )
        let asked = screen.handle(.answered(ScreenAnswer(.checkedIn(welcome), handles: .test)))
        #expect(asked.last == .prompt(KioskCatalog.text(.partyPrompt(count: 2), in: .english)))
        #expect(screen.handle(.line("y")) == [.checkInParty(query: "MUS-1")])
        let party = PartyAnswer(
            admitted: [Kit.summary(first: "Bob", last: "Byte")],
            refused: [PartyAnswer.Refused(attendee: Kit.summary(first: "Cy"), reason: "needs_staff", message: "x")]
        )
        let shown = screen.handle(.answered(ScreenAnswer(.partyCheckedIn(party), handles: .test)))
        #expect(shown.contains(.show("Checked in with you: 1 more.")))
        #expect(shown.contains(.show(KioskCatalog.text(.partySeeStaff(count: 1), in: .english))))
        #expect(!shown.contains { if case .show(let line) = $0 { line.contains("Bob") } else { false } })
        #expect(shown.last == .prompt(ScreenKit.notePrompt), "then the attendee's own note, as before")
    }

    @Test func aNoGoesOnAsBefore() {
        var screen = Kit.screen()
        _ = screen.handle(.started)
        _ = screen.handle(.line("MUS-1"))
        _ = screen.handle(.lookedUp(.found(Kit.ada(query: "MUS-1"))))
        _ = screen.handle(.line("y"))
        let welcome = CheckInAnswer(
            attendee: Kit.summary(),
            checkIn: PresenceSummary(atMillis: 1_000, kioskName: "Hall A", location: "North door"),
            party: 1
        )
        _ = screen.handle(.answered(ScreenAnswer(.checkedIn(welcome), handles: .test)))
        #expect(screen.handle(.line("n")) == [.prompt(ScreenKit.notePrompt)])
    }
}
