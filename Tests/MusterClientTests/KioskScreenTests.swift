import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

private typealias Action = KioskScreen.Action
private let mainPrompt = ScreenKit.mainPrompt
private let notePrompt = ScreenKit.notePrompt
private let confirmPrompt = ScreenKit.confirmPrompt
private func screen(campaign: String? = "DevConf 2026", refusal: String? = nil) -> KioskScreen {
    ScreenKit.screen(campaign: campaign, refusal: refusal)
}
private func ada(admitted: Bool = true, inAt: UInt64? = nil) -> KioskScreen.Match {
    ScreenKit.ada(admitted: admitted, inAt: inAt)
}
private func shown(_ actions: [Action]) -> [String] { ScreenKit.shown(actions) }
private func prompts(_ actions: [Action]) -> [String] { ScreenKit.prompts(actions) }
private func texts(_ actions: [Action]) -> [String] { ScreenKit.texts(actions) }
private func isLookup(_ action: Action) -> Bool { ScreenKit.isLookup(action) }

@Suite("KioskScreen")
struct KioskScreenTests {
    // MARK: - Waiting for a lock

    @Test func withoutCampaignItWaitsAndNeverLooksUp() {
        var s = screen(campaign: nil)
        let start = s.handle(.started)
        #expect(
            shown(start) == [
                "== Muster · kiosk Hall A ==", "This kiosk is waiting for the organizer to pick the event.",
            ]
        )
        #expect(prompts(start) == [mainPrompt])
        for line in ["ada@example.com", "MUS-1", "new", "y"] {
            let actions = s.handle(.line(line))
            #expect(!actions.contains(where: isLookup), "\(line)")
            #expect(shown(actions) == ["This kiosk is waiting for the organizer to pick the event."])
            #expect(prompts(actions) == [mainPrompt])
            #expect(s.state == .idle)
        }
    }

    @Test func refusalFromTheWindowIsShownAndNoLookupIsMade() {
        var s = screen(refusal: "Check-in opens at 10:00.")
        let start = s.handle(.started)
        #expect(shown(start) == [ScreenKit.banner, ScreenKit.hint, "Check-in opens at 10:00."])
        let actions = s.handle(.line("ada@example.com"))
        #expect(actions == [.show("Check-in opens at 10:00."), .prompt(mainPrompt)])
        #expect(s.handle(.line("new")) == [.show("Check-in opens at 10:00."), .prompt(mainPrompt)])
    }

    @Test func emptyLineJustPromptsAgain() {
        var s = screen()
        _ = s.handle(.started)
        #expect(s.handle(.line("   ")) == [.prompt(mainPrompt)])
        #expect(s.handle(.line("")) == [.prompt(mainPrompt)])
    }

    // MARK: - Happy path

    @Test func lookupConfirmCheckInAndNote() {
        var s = screen()
        let start = s.handle(.started)
        #expect(start == [.show(ScreenKit.banner), .show(ScreenKit.hint), .prompt(mainPrompt)])

        #expect(s.handle(.line("  ada@example.com ")) == [.lookup("ada@example.com")])
        #expect(s.state == .awaitingLookup)

        let found = s.handle(.lookedUp(.found(ada())))
        #expect(found == [.show("Found: Ada L."), .prompt(confirmPrompt)])

        #expect(s.handle(.line("y")) == [.checkIn(query: "ada@example.com")])
        #expect(s.state == .awaitingCheckIn)

        let welcome = s.handle(.answered(ScreenKit.checkedIn()))
        #expect(welcome == [.show("Checked in at 09:14."), .show("Welcome, Ada!"), .prompt(notePrompt)])

        #expect(
            s.handle(.line("  Looking forward to it  ")) == [
                .note(key: ScreenHandles.test.handle(for: "ada@example.com"), text: "Looking forward to it")
            ]
        )
        let thanks = s.handle(.answered(.noted))
        #expect(thanks == [.show("Thank you, your note is in the guestbook."), .show(""), .prompt(mainPrompt)])
        #expect(s.state == .idle)
    }

    @Test func yesInSeveralLanguages() {
        for answer in ["y", "Y", "yes", " YES ", "ja", "j", "oui", "o", "si", "sí", "s", "t", "tak"] {
            var s = screen()
            _ = s.handle(.line("ada@example.com"))
            _ = s.handle(.lookedUp(.found(ada())))
            #expect(s.handle(.line(answer)) == [.checkIn(query: "ada@example.com")], "\(answer)")
        }
    }

    @Test func emptyNoteGoesBackToTheMainPrompt() {
        var s = screen()
        ScreenKit.checkInAda(&s)
        let actions = s.handle(.line("   "))
        #expect(actions == [.show("Enjoy the event!"), .show(""), .prompt(mainPrompt)])
        #expect(s.state == .idle)
    }

    @Test func longNoteIsCappedAndRefusedNoteShowsTheMessage() {
        var s = screen()
        ScreenKit.checkInAda(&s)
        let actions = s.handle(.line(String(repeating: "n", count: 1_000)))
        guard case .note(_, let text) = actions.first else {
            Issue.record("no note action: \(actions)")
            return
        }
        #expect(text.count == Limits.maxNoteCharacters)
        let refused = s.handle(
            .answered(ScreenKit.refused("A note can only follow a check-in."))
        )
        #expect(shown(refused).first == "Not checked in: A note can only follow a check-in.")
        #expect(prompts(refused) == [mainPrompt])
    }

    @Test func declineDoesNotCheckIn() {
        for answer in ["n", "", "no", "maybe", "yess", "nie"] {
            var s = screen()
            _ = s.handle(.line("ada@example.com"))
            _ = s.handle(.lookedUp(.found(ada())))
            let actions = s.handle(.line(answer))
            #expect(actions == [.show("Not checked in."), .show(""), .prompt(mainPrompt)], "\(answer)")
            #expect(s.state == .idle)
        }
    }

    // MARK: - Lookup outcomes

    @Test func notFoundSaysSoInWords() {
        var s = screen()
        _ = s.handle(.line("nobody@example.com"))
        let actions = s.handle(.lookedUp(.notFound))
        #expect(shown(actions).first?.hasPrefix("Not found: no ticket or email matches.") == true)
        #expect(prompts(actions) == [mainPrompt])
        #expect(s.state == .idle)
    }

    @Test func alreadyInSaysWhenButNotWhere() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        let actions = s.handle(.lookedUp(.found(ada(inAt: 42))))
        #expect(shown(actions).first == "Already checked in: Ada L., at 09:14.")
        #expect(!actions.contains(where: ScreenKit.isCheckIn))
        #expect(s.state == .idle)
    }

    @Test func formatTimeReceivesThePresenceTime() {
        var s = KioskScreen(
            context: KioskScreen.Context(kioskName: "K", campaignName: "C", refusal: nil),
            clock: ManualClock(),
            formatTime: { "t=\($0)" }
        )
        _ = s.handle(.line("ada@example.com"))
        let actions = s.handle(.lookedUp(.found(ada(inAt: 1_234))))
        #expect(shown(actions).first == "Already checked in: Ada L., at t=1234.")
    }

    @Test func notAdmittedGoesToTheStaffDesk() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        let actions = s.handle(.lookedUp(.found(ada(admitted: false))))
        #expect(shown(actions).first == "See staff: Ada L., this ticket is not valid for check-in.")
        #expect(s.state == .idle)
    }

    @Test func refusedLookupShowsTheReason() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        let actions = s.handle(.lookedUp(.refused("Check-in closed at 18:00.")))
        #expect(shown(actions).first == "Not checked in: Check-in closed at 18:00.")
    }

    @Test func checkInAnswersOtherThanSuccess() {
        func answer(_ response: ScreenAnswer) -> [Action] {
            var s = screen()
            _ = s.handle(.line("ada@example.com"))
            _ = s.handle(.lookedUp(.found(ada())))
            _ = s.handle(.line("y"))
            return s.handle(.answered(response))
        }
        let already = shown(answer(ScreenKit.checkedIn(outcome: .alreadyCheckedIn))).first
        #expect(already == "Already checked in: Ada L., at 09:14.")
        let notFound = ScreenAnswer.notFound(ScreenRefusal("No ticket or email matches."))
        let failed = ScreenAnswer.failure(ControlFailure(.storage, "disk full"))
        #expect(shown(answer(notFound)).first?.hasPrefix("Not found:") == true)
        #expect(
            shown(answer(ScreenKit.refused("Check-in closed at 18:00."))).first
                == "Not checked in: Check-in closed at 18:00."
        )
        #expect(shown(answer(failed)).first == "Not checked in: disk full")
        // An answer with no words for a check-in sends the person to the staff desk.
        #expect(shown(answer(.noted)).first == "See staff: not checked in. Please see the staff desk.")
        for actions in [answer(notFound), answer(failed)] {
            #expect(prompts(actions) == [mainPrompt])
        }
    }

    @Test func daemonFailureIsReportedAndTheScreenContinues() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ada())))
        _ = s.handle(.line("y"))
        let actions = s.handle(.failed("musterd closed the connection before answering; the outcome is unknown"))
        #expect(shown(actions).first?.hasPrefix("See staff: something went wrong (musterd closed") == true)
        #expect(shown(actions).first?.hasSuffix("Please see the staff desk.") == true)
        #expect(s.state == .idle)
        let next = s.handle(.line("ada@example.com"))
        #expect(next.last == .lookup("ada@example.com"))
    }

    @Test func eventsInTheWrongStateAreIgnored() {
        var s = screen()
        // An answer while idle: just the prompt again.
        #expect(s.handle(.answered(ScreenKit.checkedIn())) == [.prompt(mainPrompt)])
        #expect(s.handle(.lookedUp(.notFound)) == [.prompt(mainPrompt)])
        _ = s.handle(.line("ada@example.com"))
        // A line while waiting for the lookup does nothing.
        #expect(s.handle(.line("y")) == [])
        #expect(s.state == .awaitingLookup)
        // A check-in answer while confirming does not skip the confirmation.
        _ = s.handle(.lookedUp(.found(ada())))
        #expect(s.handle(.answered(ScreenKit.checkedIn())) == [])
        #expect(s.state == .confirming(ada()))
    }

    // MARK: - Walk-in registration

    @Test func registrationPromptsInOrder() {
        var s = screen()
        _ = s.handle(.started)
        #expect(
            s.handle(.line(" NEW ")) == [
                .show("Walk-in registration (leave the first name empty to cancel)."), .prompt("First name: "),
            ]
        )
        #expect(s.handle(.line(" Linus ")) == [.prompt("Last name: ")])
        #expect(s.handle(.line("  ")) == [.prompt("Last name (required): ")])
        #expect(s.handle(.line("Walker")) == [.prompt("Email: ")])
        #expect(
            s.handle(.line("not an email")) == [.show("That does not look like an email address."), .prompt("Email: ")]
        )
        #expect(s.handle(.line("a@b@c")) == [.show("That does not look like an email address."), .prompt("Email: ")])
        #expect(s.handle(.line("")) == [.show("That does not look like an email address."), .prompt("Email: ")])
        #expect(s.handle(.line(" linus@walkin.example ")) == [.lookup("linus@walkin.example")])
        #expect(s.handle(.lookedUp(.notFound)) == [.prompt("Company (optional): ")])
        var draft = KioskScreen.Draft()
        draft.firstName = "Linus"
        draft.lastName = "Walker"
        draft.email = "linus@walkin.example"
        draft.company = "Kernel Co"
        #expect(s.handle(.line("Kernel Co")) == [.register(draft)])
        #expect(s.state == .awaitingRegistration)

        let welcome = s.handle(.answered(ScreenKit.registered()))
        #expect(shown(welcome).first == "Checked in at 09:14.")
        #expect(shown(welcome).contains("Welcome, Linus!"))
        #expect(shown(welcome).contains("Scan this code at re-entry:"))
        #expect(shown(welcome).last == "Your ticket code is W-ABCD1234. Keep it for re-entry.")
        #expect(prompts(welcome) == [notePrompt])
        #expect(s.state == .noting(key: ScreenHandles.test.handle(for: "linus@walkin.example")))
    }

    @Test func emptyCompanyIsAllowed() {
        var s = screen()
        for line in ["new", "Linus", "Walker", "linus@walkin.example"] { _ = s.handle(.line(line)) }
        _ = s.handle(.lookedUp(.notFound))
        let actions = s.handle(.line(""))
        guard case .register(let draft) = actions.first else {
            Issue.record("no register action: \(actions)")
            return
        }
        #expect(draft.company == "")
        #expect(draft.email == "linus@walkin.example")
    }

    @Test func emptyFirstNameCancels() {
        var s = screen()
        _ = s.handle(.line("new"))
        let actions = s.handle(.line("   "))
        #expect(actions == [.show("Registration cancelled."), .show(""), .prompt(mainPrompt)])
        #expect(s.state == .idle)
        #expect(s.handle(.line("ada@example.com")).last == .lookup("ada@example.com"))
    }

    // MARK: - Context changes

    @Test func newCampaignResetsToIdleWithNewBanner() {
        var s = screen(campaign: "DevConf 2026")
        _ = s.handle(.started)
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ada())))
        #expect(s.state == .confirming(ada()))

        let newContext = KioskScreen.Context(kioskName: "Hall A", campaignName: "Partner Day", refusal: nil)
        let actions = s.update(context: newContext)
        #expect(
            actions == [
                .show(""), .show("== Partner Day · check-in · kiosk Hall A =="), .show(ScreenKit.hint),
                .prompt(mainPrompt),
            ]
        )
        #expect(s.state == .idle)
        #expect(s.context == newContext)
        // The pending confirmation is gone: "y" is now just a query.
        #expect(s.handle(.line("y")) == [.lookup("y")])
        #expect(s.update(context: newContext) == [], "an unchanged context does nothing")
    }

    @Test func unlockMidRegistrationStopsIt() {
        var s = screen()
        _ = s.handle(.line("new"))
        _ = s.handle(.line("Linus"))
        let actions = s.update(context: KioskScreen.Context(kioskName: "Hall A", campaignName: nil, refusal: nil))
        #expect(shown(actions).contains("This kiosk is waiting for the organizer to pick the event."))
        #expect(s.state == .idle)
        let next = s.handle(.line("Walker"))
        #expect(!next.contains(where: isLookup))
        #expect(!next.contains { if case .register = $0 { true } else { false } })
    }

    // MARK: - Hostile text

    static let forbidden: Set<UInt32> = [0x1B, 0x9B, 0x07, 0x202E, 0x00, 0x7F, 0x0D, 0x2066, 0x2067]

    @Test func controlSequencesNeverReachTheScreen() {
        let evil = "\u{1B}[2J\u{9B}31m\u{07}\u{202E}\u{0}\u{7F}\r\u{2069}"
        let attendee = AttendeeSummary.sample(
            key: "eve@example.com",
            first: "Eve\(evil)",
            last: "\(evil)Mallory",
            company: "Evil\(evil)Corp",
            ticket: "T\(evil)"
        )
        let presence = PresenceSummary(atMillis: 1, kioskName: "Hall\(evil)B", location: "Door\(evil)")
        let context = KioskScreen.Context(kioskName: "K\(evil)", campaignName: "Conf\(evil)", refusal: nil)
        let match = KioskScreen.Match(query: "eve@example.com", maskedName: "Eve\(evil) M.", admitted: true)

        var all: [Action] = []
        var s = KioskScreen(context: context, clock: ManualClock(), formatTime: { _ in "09:14" })
        all += s.handle(.started)
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.found(match)))
        all += s.handle(.line("y"))
        all += s.handle(.answered(ScreenKit.checkedIn(attendee, presence: presence, message: "Hi\(evil)")))
        all += s.handle(.line("note\(evil)"))
        all += s.handle(.answered(ScreenKit.refused("No\(evil)")))
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.found(KioskScreen.Match(query: "e", maskedName: "E\(evil)", admitted: false))))
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.refused("Closed\(evil)")))
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.found(match)))
        all += s.handle(.line("y"))
        all += s.handle(.answered(ScreenKit.checkedIn(attendee, outcome: .alreadyCheckedIn, presence: presence)))
        all += s.handle(.line("new"))
        all += s.handle(.line("Eve\(evil)"))
        all += s.handle(.line("Mal\(evil)lory"))
        all += s.handle(.line("eve\(evil)@example.com"))
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.notFound))
        let register = s.handle(.line("Co\(evil)"))
        all += register
        if case .register(let draft) = register.first {
            for field in [draft.firstName, draft.lastName, draft.email, draft.company] {
                #expect(
                    !field.unicodeScalars.contains { Self.forbidden.contains($0.value) },
                    "\(field.debugDescription)"
                )
            }
        } else {
            Issue.record("registration did not finish: \(register)")
        }
        let registered = WalkInAnswer(ticket: "W-\(evil)", attendee: attendee, checkIn: presence)
        all += s.handle(.answered(ScreenAnswer(.registered(registered), handles: .test)))
        all += s.handle(.failed("socket\(evil)gone"))
        all += s.update(
            context: KioskScreen.Context(kioskName: "K2\(evil)", campaignName: "C2\(evil)", refusal: "R\(evil)")
        )
        all += s.handle(.line("x"))
        all += s.update(context: KioskScreen.Context(kioskName: "K3\(evil)", campaignName: nil, refusal: nil))

        #expect(texts(all).count > 30)
        for text in texts(all) {
            let bad = text.unicodeScalars.filter { Self.forbidden.contains($0.value) }
            #expect(bad.isEmpty, "\(text.debugDescription)")
        }
        // The names still come through, minus the control characters, and the company never does.
        #expect(texts(all).contains { $0.contains("Welcome, Eve") })
        #expect(texts(all).contains { $0.contains("Found: Eve") })
        #expect(!texts(all).contains { $0.contains("EvilCorp") || $0.contains("Evil[") })
    }

    @Test(arguments: [
        "exit", "quit", "lock other", "unlock", "campaign Partner Day", "logout", ":q", "help", "list", "*", "%",
        "' OR 1=1 --", "\u{03}", "\u{1B}[A", "sudo muster unlock", "cancel", "back", "admin",
    ])
    func typedCommandsAreOnlyQueries(text: String) {
        var s = screen()
        _ = s.handle(.started)
        let actions = s.handle(.line(text))
        #expect(actions.count == 1)
        #expect(actions.allSatisfy(isLookup), "\(actions)")
        #expect(s.context.campaignName == "DevConf 2026")
        // And whatever the lookup says, the next screen is the main prompt again.
        let after = s.handle(.lookedUp(.notFound))
        #expect(after.allSatisfy { if case .show = $0 { true } else if case .prompt = $0 { true } else { false } })
        #expect(prompts(after) == [mainPrompt])
    }
}
