import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

/// What a stranger at the kiosk must not learn or inherit: the masked name, the timeouts on a manual
/// clock, the back-off against guessing, `new` with someone else's email, and "already in" without where.
@Suite("KioskScreen privacy")
struct KioskScreenPrivacyTests {
    private typealias Action = KioskScreen.Action

    /// A screen that has just shown Ada's check-in (welcome and note prompt).
    private func checkedInScreen(clock: ManualClock, options: ScreenOptions = ScreenOptions()) -> KioskScreen {
        var s = ScreenKit.screen(options: options, clock: clock)
        _ = s.handle(.started)
        ScreenKit.checkInAda(&s)
        return s
    }

    // MARK: - Masked name

    @Test func beforeConfirmationOnlyTheMaskedNameIsShown() {
        var s = ScreenKit.screen()
        _ = s.handle(.line("ada@example.com"))
        let found = s.handle(.lookedUp(.found(ScreenKit.ada())))
        let all = ScreenKit.texts(found).joined(separator: "\n")
        #expect(all.contains("Ada L."))
        #expect(!all.contains("Lovelace") && !all.contains("Analytical") && !all.contains("MUS-1"))
    }

    @Test func maskedNameKeepsWholeGraphemes() {
        #expect(MaskedName.of(firstName: "Ada", lastName: "Lovelace") == "Ada L.")
        #expect(MaskedName.of(firstName: " José ", lastName: "N\u{303}úñez") == "José N\u{303}.")
        #expect(MaskedName.of(firstName: "", lastName: "Hopper") == "H.")
        #expect(MaskedName.of(firstName: "Grace", lastName: "") == "Grace")
        #expect(MaskedName.of(firstName: "太郎", lastName: "山田") == "太郎 山.")
        #expect(MaskedName.of(firstName: "\u{1B}[2JEve", lastName: "\u{202E}Mallory") == "Eve M.")
    }

    // MARK: - Outcome cleared after the outcome timeout

    @Test func outcomeIsWipedAfterFifteenSeconds() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        _ = s.handle(.line("nobody@example.com"))
        let missed = s.handle(.lookedUp(.notFound))
        #expect(ScreenKit.prompts(missed) == [ScreenKit.mainPrompt])
        #expect(s.nextDeadline == clock.uptime + .seconds(15))
        clock.advance(by: .seconds(14))
        #expect(s.handle(.tick) == [], "nothing happens before the timeout")
        clock.advance(by: .seconds(1))
        #expect(s.handle(.tick) == ScreenKit.wipedToStart)
        #expect(s.handle(.tick) == [], "wiped once")
        #expect(s.nextDeadline == nil)
    }

    @Test func welcomeAndNotePromptAreWipedAndTheNextYesChecksNoOneIn() {
        let clock = ManualClock()
        var s = checkedInScreen(clock: clock)
        #expect(s.state == .noting(key: ScreenHandles.test.handle(for: "ada@example.com")))
        clock.advance(by: .seconds(15))
        #expect(s.handle(.tick) == ScreenKit.wipedToStart)
        #expect(s.state == .idle)
        // The next person's "y" and email are queries, never a note or a check-in on Ada's record.
        #expect(s.handle(.line("y")) == [.lookup("y")])
        _ = s.handle(.lookedUp(.notFound))
        let email = s.handle(.line("grace@example.com"))
        #expect(!email.contains { if case .note = $0 { true } else { false } })
    }

    @Test func configuredOutcomeTimeoutIsUsed() {
        let clock = ManualClock()
        let options = ScreenOptions().with(\.outcomeTimeout, .seconds(3))
        var s = ScreenKit.screen(options: options, clock: clock)
        _ = s.handle(.line("nobody@example.com"))
        _ = s.handle(.lookedUp(.notFound))
        clock.advance(by: .seconds(2))
        #expect(s.handle(.tick) == [])
        clock.advance(by: .seconds(1))
        #expect(s.handle(.tick).first == .clear)
    }

    @Test func theNextPersonsFirstLineWipesTheOutcomeAtOnce() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ScreenKit.ada(inAt: 5))))
        clock.advance(by: .seconds(2))
        let next = s.handle(.line("grace@example.com"))
        #expect(next == [.clear, .show(ScreenKit.banner), .show(ScreenKit.hint), .lookup("grace@example.com")])
    }

    // MARK: - Idle questions

    @Test func aForgottenConfirmationReturnsToTheStart() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ScreenKit.ada())))
        clock.advance(by: .seconds(29))
        #expect(s.handle(.tick) == [])
        clock.advance(by: .seconds(1))
        #expect(s.handle(.tick) == ScreenKit.wipedToStart)
        #expect(s.handle(.line("y")) == [.lookup("y")], "the next person's yes is a query, not Ada's check-in")
    }

    @Test func typingKeepsARegistrationAlive() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        _ = s.handle(.line("new"))
        clock.advance(by: .seconds(25))
        _ = s.handle(.line("Linus"))
        clock.advance(by: .seconds(25))
        #expect(s.handle(.tick) == [], "each answer restarts the idle timeout")
        #expect(s.state == .registering(KioskScreen.Draft(firstName: "Linus"), .lastName))
        clock.advance(by: .seconds(5))
        #expect(s.handle(.tick) == ScreenKit.wipedToStart)
        #expect(s.state == .idle)
    }

    @Test func configuredIdleTimeoutIsUsed() {
        let clock = ManualClock()
        let options = ScreenOptions().with(\.idleTimeout, .seconds(5))
        var s = ScreenKit.screen(options: options, clock: clock)
        _ = s.handle(.line("new"))
        clock.advance(by: .seconds(5))
        #expect(s.handle(.tick).first == .clear)
    }

    // MARK: - Back-off against guessing

    private func miss(_ s: inout KioskScreen) -> [Action] {
        _ = s.handle(.line("MUS-\(Int.random(in: 1000...9999))"))
        return s.handle(.lookedUp(.notFound))
    }

    @Test func repeatedMissesWaitLongerEachTimeAndSendToStaff() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        for _ in 1...3 {
            let actions = miss(&s)
            #expect(ScreenKit.prompts(actions) == [ScreenKit.mainPrompt], "the first three misses cost nothing")
            #expect(s.state == .idle)
        }
        for expected in [2, 4, 8, 16, 32, 60, 60] {
            let actions = miss(&s)
            #expect(ScreenKit.shown(actions).first?.hasPrefix("Not found:") == true)
            #expect(
                ScreenKit.shown(actions).contains(
                    "Not found again. Please see the staff desk. The next try is possible in \(expected) s."
                )
            )
            #expect(ScreenKit.prompts(actions).isEmpty, "no prompt while waiting")
            #expect(s.state == .backingOff)
            // Whatever is typed meanwhile (a scanner, a script) is dropped.
            #expect(s.handle(.line("MUS-0001")) == [])
            clock.advance(by: .seconds(Int64(expected)) - .milliseconds(1))
            #expect(!s.handle(.tick).contains(.prompt(ScreenKit.mainPrompt)))
            #expect(s.state == .backingOff)
            clock.advance(by: .milliseconds(1))
            #expect(ScreenKit.prompts(s.handle(.tick)) == [ScreenKit.mainPrompt])
            #expect(s.state == .idle)
        }
    }

    @Test func missesAreForgottenAfterTheMemoryOrACheckIn() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        for _ in 1...3 { _ = miss(&s) }
        clock.advance(by: .seconds(300))
        _ = s.handle(.tick)
        _ = miss(&s)
        #expect(s.state == .idle, "five minutes without a miss start the count again")
        for _ in 1...2 { _ = miss(&s) }
        ScreenKit.checkInAda(&s)
        _ = s.handle(.line(""))
        _ = miss(&s)
        #expect(s.state == .idle, "a check-in starts the count again")
        #expect(s.misses == 1)
    }

    @Test func backoffIsCappedAndConfigurable() {
        let options = ScreenOptions.brake(freeMisses: 0, first: .seconds(5), max: .seconds(12))
        let s = ScreenKit.screen(options: options)
        #expect(
            (0...4).map { s.backoff(afterMisses: $0) } == [
                .zero, .seconds(5), .seconds(10), .seconds(12), .seconds(12),
            ]
        )
        #expect(s.backoff(afterMisses: 1_000) == .seconds(12))
    }

    // MARK: - `new` with an email already on the list

    @Test func newWithAnExistingEmailAsksToConfirmWithoutTheName() {
        var s = ScreenKit.screen()
        var all: [Action] = []
        for line in ["new", "Mallory", "Eve", "ada@example.com"] { all += s.handle(.line(line)) }
        #expect(all.last == .lookup("ada@example.com"))
        let asked = s.handle(.lookedUp(.found(ScreenKit.ada())))
        #expect(asked == [.prompt("This email is already registered. Is it yours? Check in now? [y/N] ")])
        all += asked
        #expect(!ScreenKit.texts(all).joined().contains("Ada"))
        #expect(s.handle(.line("y")) == [.checkIn(query: "ada@example.com")])
    }

    @Test func newWithAnExistingEmailDeclinedRegistersNothing() {
        var s = ScreenKit.screen()
        for line in ["new", "Mallory", "Eve", "ada@example.com"] { _ = s.handle(.line(line)) }
        _ = s.handle(.lookedUp(.found(ScreenKit.ada())))
        let declined = s.handle(.line("n"))
        #expect(!declined.contains { if case .register = $0 { true } else { false } })
        #expect(ScreenKit.shown(declined).first == "Not checked in.")
    }

    @Test func newWithAnEmailAlreadyInsideSaysWhenOnly() {
        var s = ScreenKit.screen()
        for line in ["new", "Mallory", "Eve", "ada@example.com"] { _ = s.handle(.line(line)) }
        let actions = s.handle(.lookedUp(.found(ScreenKit.ada(inAt: 7))))
        #expect(ScreenKit.shown(actions).first == "Already checked in: ada@example.com, at 09:14.")
    }

    @Test func newWithAnInvalidEmailSendsToStaffWithoutTheName() {
        var s = ScreenKit.screen()
        for line in ["new", "Mallory", "Eve", "ada@example.com"] { _ = s.handle(.line(line)) }
        let actions = s.handle(.lookedUp(.found(ScreenKit.ada(admitted: false))))
        #expect(ScreenKit.shown(actions).first == "See staff: not checked in. Please see the staff desk.")
    }

    // MARK: - Already in: when, not where

    @Test func alreadyInFromTheDaemonNeverNamesKioskOrPlace() {
        var s = ScreenKit.screen()
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ScreenKit.ada())))
        _ = s.handle(.line("y"))
        let response = ScreenKit.checkedIn(
            outcome: .alreadyCheckedIn,
            presence: PresenceSummary(atMillis: 9, kioskName: "Hall B", location: "South door")
        )
        let text = ScreenKit.texts(s.handle(.answered(response))).joined(separator: "\n")
        #expect(text.contains("Already checked in: Ada L., at 09:14."))
        #expect(!text.contains("Hall B") && !text.contains("South door") && !text.contains("Analytical"))
    }
}
