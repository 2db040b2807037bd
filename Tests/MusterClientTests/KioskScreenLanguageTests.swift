import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

/// The screen in the attendee's language and script, and for people who cannot see it well.
@Suite("KioskScreen languages and accessibility")
struct KioskScreenLanguageTests {
    private typealias Action = KioskScreen.Action

    /// One of every message, with sample values, to check each catalog entry.
    static let everyMessage: [KioskMessage] = [
        .title(kiosk: "K"), .banner(campaign: "C", kiosk: "K"), .waitingForEvent, .languageHint, .languageChosen,
        .mainPrompt, .found(name: "Ada L."), .confirmPrompt, .notCheckedIn, .notFound, .seeStaff(seconds: 4),
        .notValid(name: "Ada L."), .alreadyIn(name: "Ada L.", time: "09:14"), .checkedIn(time: "09:14"),
        .welcome(firstName: "Ada"), .welcome(firstName: ""), .welcomeWord, .ticketCode("W-1"), .scanAtReEntry,
        .notePrompt, .noteSaved, .noteNotSaved, .enjoy, .registrationStart, .firstNamePrompt, .lastNamePrompt,
        .lastNameRequired, .emailPrompt, .notAnEmail, .companyPrompt, .registrationCancelled, .emailRegistered,
        .failed(detail: "x"), .refused(detail: "x"), .seeStaffDesk,
    ]

    // MARK: - Catalog

    @Test(arguments: ScreenLanguage.allCases)
    func everyMessageIsTranslated(language: ScreenLanguage) {
        var english = 0
        for message in Self.everyMessage {
            let text = KioskCatalog.text(message, in: language)
            #expect(!text.trimmingWhitespace().isEmpty, "\(language) \(message)")
            #expect(!text.unicodeScalars.contains { TerminalText.isUnsafe($0) }, "\(language) \(message)")
            if text == KioskCatalog.text(message, in: .english) { english += 1 }
        }
        if language != .english {
            // The kiosk name banner, the language hint and a few e-mail/kiosk words are the same everywhere.
            #expect(english <= 4, "\(language): \(english) messages are still English")
        }
        // Values are carried into the sentence.
        #expect(KioskCatalog.text(.found(name: "Ada L."), in: language).contains("Ada L."))
        #expect(KioskCatalog.text(.alreadyIn(name: "Ada L.", time: "09:14"), in: language).contains("09:14"))
        #expect(KioskCatalog.text(.seeStaff(seconds: 8), in: language).contains("8"))
        // Prompts end with a space, so the answer does not stick to them.
        for prompt in [KioskMessage.mainPrompt, .confirmPrompt, .notePrompt, .emailPrompt, .emailRegistered] {
            #expect(KioskCatalog.text(prompt, in: language).hasSuffix(" "), "\(language) \(prompt)")
        }
    }

    @Test func translationsUseTheirOwnLetters() {
        #expect(KioskCatalog.text(.notFound, in: .german).contains("Prüfen"))
        #expect(KioskCatalog.text(.waitingForEvent, in: .french).contains("l’événement"))
        #expect(KioskCatalog.text(.seeStaff(seconds: 2), in: .spanish).contains("Diríjase"))
        #expect(KioskCatalog.text(.checkedIn(time: "9"), in: .polish).hasPrefix("Wejście"))
        #expect(KioskCatalog.text(.notePrompt, in: .polish).contains("księdze gości"))
        #expect(KioskCatalog.text(.confirmPrompt, in: .dutch) == "Bent u dit? Nu inchecken? [j/N] ")
    }

    @Test func theConfirmPromptsYesLetterIsAccepted() {
        for language in ScreenLanguage.allCases {
            let prompt = KioskCatalog.text(.confirmPrompt, in: language)
            let yes = String(prompt[prompt.index(after: prompt.lastIndex(of: "[")!)])
            #expect(KioskScreen.isYes(yes), "\(language): \(yes)")
        }
    }

    // MARK: - Switching for one turn

    @Test func typingACodeSwitchesForThisPersonOnly() {
        var s = ScreenKit.screen()
        _ = s.handle(.started)
        let switched = s.handle(.line(" DE "))
        #expect(
            switched == [.show("Sprache: Deutsch."), .prompt("E-Mail oder Ticketcode (oder 'new' zum Registrieren): ")]
        )
        _ = s.handle(.line("ada@example.com"))
        let found = s.handle(.lookedUp(.found(ScreenKit.ada())))
        #expect(found == [.show("Gefunden: Ada L."), .prompt("Sind Sie das? Jetzt einchecken? [j/N] ")])
        _ = s.handle(.line("j"))
        let welcome = s.handle(.answered(ScreenKit.checkedIn()))
        #expect(ScreenKit.shown(welcome) == ["Eingecheckt um 09:14.", "Willkommen, Ada!"])
        let done = s.handle(.line(""))
        #expect(ScreenKit.shown(done).first == "Viel Freude bei der Veranstaltung!")
        // The next person is greeted in the kiosk's language again.
        #expect(ScreenKit.prompts(done) == [ScreenKit.mainPrompt])
        #expect(s.language == .english)
    }

    @Test func aTimeoutAlsoResetsTheLanguage() {
        let clock = ManualClock()
        var s = ScreenKit.screen(clock: clock)
        _ = s.handle(.line("fr"))
        _ = s.handle(.line("new"))
        #expect(s.language == .french)
        clock.advance(by: .seconds(30))
        #expect(s.handle(.tick) == ScreenKit.wipedToStart)
        #expect(s.language == .english)
    }

    @Test func theKiosksLanguageComesFromItsOptions() {
        let options = ScreenOptions().with(\.language, .polish)
        var s = ScreenKit.screen(options: options)
        let start = s.handle(.started)
        #expect(ScreenKit.shown(start).first == "== DevConf 2026 · rejestracja wejścia · kiosk Hall A ==")
        #expect(ScreenKit.prompts(start) == ["E-mail lub kod biletu (albo 'new', aby się zarejestrować): "])
        _ = s.handle(.line("en"))
        _ = s.handle(.line("nobody@example.com"))
        let missed = s.handle(.lookedUp(.notFound))
        #expect(ScreenKit.shown(missed).first?.hasPrefix("Not found:") == true)
        #expect(ScreenKit.prompts(missed) == ["E-mail lub kod biletu (albo 'new', aby się zarejestrować): "])
    }

    // MARK: - Names in any script

    @Test func rightToLeftNamesAreIsolatedByTheScreenOnly() {
        let hebrew = ScreenName.display("שרה כ.")
        #expect(hebrew == "\u{2068}שרה כ.\u{2069}")
        #expect(ScreenName.display("Ada L.") == "Ada L.", "left-to-right names are left alone")
        // Bidi controls from data are stripped before the screen adds its own isolate.
        let hostile = ScreenName.display("\u{202E}سارة\u{2069}\u{2066} ب.")
        #expect(hostile == "\u{2068}سارة ب.\u{2069}")
        var s = ScreenKit.screen()
        _ = s.handle(.line("sara@example.com"))
        let found = s.handle(
            .lookedUp(.found(KioskScreen.Match(query: "sara@example.com", maskedName: "سارة ب.", admitted: true)))
        )
        #expect(ScreenKit.shown(found) == ["Found: \u{2068}سارة ب.\u{2069}"])
    }

    @Test func widthCountsCellsNotCharacters() {
        #expect(TerminalCells.width(of: "Ada") == 3)
        #expect(TerminalCells.width(of: "山田太郎") == 8)
        #expect(TerminalCells.width(of: "e\u{301}") == 1, "a combining accent takes no cell")
        #expect(TerminalCells.width(of: "N\u{303}u\u{301}n\u{303}ez") == 5)
        #expect(TerminalCells.width(of: "한국") == 4)
        #expect(TerminalCells.width(of: "\u{2068}שרה\u{2069}") == 3)
        #expect(TerminalCells.truncate("山田太郎", toCells: 5) == "山田…")
        #expect(TerminalCells.truncate("Ada", toCells: 5) == "Ada")
        let long = String(repeating: "e\u{301}", count: 50)
        #expect(TerminalCells.width(of: ScreenName.display(long, maxCells: 10)) == 10)
    }

    @Test func longCJKNamesAreCutByCells() {
        var s = ScreenKit.screen()
        _ = s.handle(.line("x@example.com"))
        let name = String(repeating: "山", count: 60) + " 田."
        let found = s.handle(.lookedUp(.found(KioskScreen.Match(query: "x", maskedName: name, admitted: true))))
        let line = ScreenKit.shown(found)[0]
        #expect(TerminalCells.width(of: line) <= 80)
        #expect(line.hasSuffix("…"))
    }

    // MARK: - Accessibility

    @Test func bellCuesDifferForSuccessAndFailureAndNeverReplaceWords() {
        let options = ScreenOptions().with(\.bell, true)
        var s = ScreenKit.screen(options: options)
        _ = s.handle(.line("nobody@example.com"))
        let missed = s.handle(.lookedUp(.notFound))
        #expect(missed.first == .cue(.failure))
        #expect(ScreenKit.shown(missed).first?.hasPrefix("Not found") == true)
        let welcome = ScreenKit.checkInAda(&s)
        #expect(welcome.first == .cue(.success))
        #expect(ScreenKit.shown(welcome).first == "Checked in at 09:14.")

        var quiet = ScreenKit.screen()
        _ = quiet.handle(.line("nobody@example.com"))
        #expect(!quiet.handle(.lookedUp(.notFound)).contains { if case .cue = $0 { true } else { false } })
    }

    @Test(arguments: ScreenLanguage.allCases)
    func largeWelcomeIsPlainBlockLinesAboveTheWords(language: ScreenLanguage) {
        let options = ScreenOptions().with(\.largeWelcome, true).with(\.language, language)
        var s = ScreenKit.screen(options: options)
        let lines = ScreenKit.shown(ScreenKit.checkInAda(&s))
        #expect(lines.count == 2 + BlockLetters.height)
        let block = lines[1...BlockLetters.height]
        #expect(block.allSatisfy { $0.allSatisfy { $0 == "█" || $0 == " " } && TerminalCells.width(of: $0) <= 80 })
        #expect(
            block.allSatisfy { !$0.isEmpty },
            "every letter of \(KioskCatalog.text(.welcomeWord, in: language)) has a glyph"
        )
        #expect(lines.last == KioskCatalog.text(.welcome(firstName: "Ada"), in: language))
    }

    // MARK: - The walk-in's QR code

    @Test(arguments: [false, true])
    func walkInTicketQRFitsEightyByTwentyFour(largeWelcome: Bool) throws {
        let options = ScreenOptions().with(\.largeWelcome, largeWelcome)
        var s = ScreenKit.screen(options: options)
        for line in ["new", "Linus", "Walker", "linus@walkin.example"] { _ = s.handle(.line(line)) }
        _ = s.handle(.lookedUp(.notFound))
        _ = s.handle(.line(""))
        let actions = s.handle(.answered(ScreenKit.registered(ticket: "W-7K3M9QXZ")))
        let lines = ScreenKit.texts(actions)
        #expect(lines.count <= 24, "\(lines.count) lines: the welcome, the code and the prompt fit one screen")
        #expect(lines.allSatisfy { TerminalCells.width(of: $0) <= 80 })
        let art = try QRCode(text: "W-7K3M9QXZ").terminalText(quietZone: 2).split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "Scan this code at re-entry:"))
        #expect(Array(lines[(start + 1)...(start + art.count)]) == art, "the QR code of the ticket itself")
        #expect(lines[start + art.count + 1] == "Your ticket code is W-7K3M9QXZ. Keep it for re-entry.")
    }

    @Test func aTicketTooWideForTheTerminalIsGivenInWordsOnly() {
        let options = ScreenOptions().with(\.columns, 40)
        let s = ScreenKit.screen(options: options)
        let ticket = String(repeating: "W", count: 100)
        let lines = ScreenKit.texts(s.ticketLines(ticket))
        #expect(lines == ["Your ticket code is \(ticket). Keep it for re-entry."])
    }
}
