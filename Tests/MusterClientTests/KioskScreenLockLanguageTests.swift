import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

/// The language the organizer's lock sets (issue 14): it wins over the kiosk's config, loses to the
/// attendee's own choice for their turn, and is what the screen returns to at the next person.
@Suite("KioskScreen language on the lock")
struct KioskScreenLockLanguageTests {
    private static func context(language: ScreenLanguage?) -> KioskScreen.Context {
        KioskScreen.Context(kioskName: "Hall A", campaignName: "DevConf 2026", refusal: nil, language: language)
    }

    @Test func theLocksLanguageWinsOverTheConfigs() {
        let options = ScreenOptions().with(\.language, .polish)
        var s = ScreenKit.screen(options: options)
        #expect(s.language == .polish)
        let switched = s.update(context: Self.context(language: .german))
        #expect(s.language == .german)
        #expect(ScreenKit.prompts(switched) == [KioskCatalog.text(.mainPrompt, in: .german)])
        #expect(ScreenKit.shown(switched).contains(KioskCatalog.text(.languageHint, in: .german)))
    }

    @Test func theAttendeesChoiceWinsForTheirTurnThenTheLocksReturns() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        _ = s.update(context: Self.context(language: .german))
        _ = s.handle(.line("fr"))
        #expect(s.language == .french)
        _ = s.handle(.line("nobody@example.com"))
        let missed = s.handle(.lookedUp(.notFound))
        #expect(ScreenKit.shown(missed).first == KioskCatalog.text(.notFound, in: .french))
        // The turn is over: the next person is greeted in the lock's language, not French or English.
        #expect(s.language == .german)
        #expect(ScreenKit.prompts(missed) == [KioskCatalog.text(.mainPrompt, in: .german)])
        clock.advance(by: .seconds(15))
        let wiped = s.handle(.tick)
        #expect(ScreenKit.prompts(wiped) == [KioskCatalog.text(.mainPrompt, in: .german)])
    }

    @Test func aForgottenQuestionReturnsToTheLocksLanguage() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        _ = s.update(context: Self.context(language: .dutch))
        _ = s.handle(.line("es"))
        _ = s.handle(.line("new"))
        #expect(s.language == .spanish)
        clock.advance(by: .seconds(30))
        let back = s.handle(.tick)
        #expect(s.language == .dutch)
        #expect(ScreenKit.prompts(back) == [KioskCatalog.text(.mainPrompt, in: .dutch)])
    }

    @Test func aLockWithoutALanguageGivesTheConfigsBack() {
        let options = ScreenOptions().with(\.language, .spanish)
        var s = ScreenKit.screen(options: options)
        _ = s.update(context: Self.context(language: .german))
        #expect(s.language == .german)
        _ = s.update(context: Self.context(language: nil))
        #expect(s.language == .spanish)
    }

    @Test func theDaemonsBrakeIsTheSeeStaffMessage() {
        var s = ScreenKit.screen()
        _ = s.handle(.line("MUS-9999"))
        let actions = s.handle(.lookedUp(.throttled(seconds: 8)))
        #expect(ScreenKit.shown(actions).first == KioskCatalog.text(.seeStaff(seconds: 8), in: .english))
        // A check-in refused by the brake says the same.
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ScreenKit.ada())))
        _ = s.handle(.line("y"))
        let refused = ScreenAnswer.failure(ControlFailure(.rateLimited, "too many", retryAfterSeconds: 4))
        let answered = s.handle(.answered(refused))
        #expect(ScreenKit.shown(answered).first == KioskCatalog.text(.seeStaff(seconds: 4), in: .english))
    }

    @Test func lockLanguageMustBeOneTheScreenSpeaks() throws {
        #expect(try OrganizerActions.screenLanguage(" DE ") == .german)
        for code in ScreenLanguage.allCases.map(\.rawValue) {
            #expect(try OrganizerActions.screenLanguage(code).rawValue == code)
        }
        for bad in ["xx", "", "deu", "d\u{1B}e", "english"] {
            let error = #expect(throws: ClientError.self) { try OrganizerActions.screenLanguage(bad) }
            #expect(error?.message.contains("is not a language the kiosk screen speaks") == true)
            #expect(error?.message.contains("en, de, fr, es, nl, pl") == true)
            #expect(error?.message.contains("\u{1B}") == false, "the typed code is sanitized")
        }
    }
}

/// A kiosk that works alone says so on its screen, for staff, between people (issue 37).
@Suite("KioskScreen working alone")
struct KioskScreenSolitudeTests {
    static func context(_ solitude: Solitude?) -> KioskScreen.Context {
        KioskScreen.Context(kioskName: "Hall A", campaignName: "DevConf 2026", refusal: nil, solitude: solitude)
    }

    @Test func theBannerCarriesTheStaffLineInTheScreensLanguage() {
        var s = ScreenKit.screen(options: ScreenOptions().with(\.language, .german))
        let alone = s.update(context: Self.context(Solitude(sinceMillis: 0, unheardZone: "Halle B")))
        let line = KioskCatalog.text(.workingAlone(since: "09:14", zone: "Halle B"), in: .german)
        #expect(line == "[Personal] Arbeitet allein seit 09:14: Halle B nicht erreichbar.")
        #expect(ScreenKit.shown(alone).contains(line))
        let healed = s.update(context: Self.context(nil))
        #expect(!ScreenKit.shown(healed).contains { $0.hasPrefix("[Personal]") }, "\(healed)")
        #expect(ScreenKit.prompts(healed) == [KioskCatalog.text(.mainPrompt, in: .german)])
    }

    @Test func aPersonInTheMiddleOfTheirTurnKeepsIt() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ScreenKit.ada())))
        #expect(s.update(context: Self.context(Solitude(sinceMillis: 0, unheardZone: nil))).isEmpty)
        // The turn goes on; the next banner has the line.
        #expect(ScreenKit.shown(s.handle(.line("n"))) == [KioskCatalog.text(.notCheckedIn, in: .english), ""])
        clock.advance(by: .seconds(15))
        let done = s.handle(.tick)
        #expect(
            ScreenKit.shown(done).contains(KioskCatalog.text(.workingAlone(since: "09:14", zone: nil), in: .english))
        )
    }
}
