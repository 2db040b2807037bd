import MusterControl
import MusterCore
import MusterDaemon
import MusterStore
import Testing

@testable import MusterClient

private typealias Action = KioskScreen.Action

private let mainPrompt = "Email or ticket code (or 'new' to register): "
private let notePrompt = "Leave a one-line note for the guestbook (or press Enter to skip): "
private let confirmPrompt = "Is this you? Check in now? [y/N] "

private func screen(campaign: String? = "DevConf 2026", refusal: String? = nil, kiosk: String = "Hall A") -> KioskScreen
{
    KioskScreen(
        context: KioskScreen.Context(kioskName: kiosk, campaignName: campaign, refusal: refusal),
        formatTime: { _ in "09:14" }
    )
}

private func ada(first: String = "Ada", last: String = "Lovelace", company: String = "Analytical") -> AttendeeSummary {
    AttendeeSummary(
        campaignID: "c1",
        key: "ada@example.com",
        firstName: first,
        lastName: last,
        company: company,
        ticket: "MUS-1"
    )
}

private func shown(_ actions: [Action]) -> [String] {
    actions.compactMap { if case .show(let text) = $0 { text } else { nil } }
}

private func prompts(_ actions: [Action]) -> [String] {
    actions.compactMap { if case .prompt(let text) = $0 { text } else { nil } }
}

private func texts(_ actions: [Action]) -> [String] {
    actions.compactMap { action in
        switch action {
        case .show(let text), .prompt(let text): text
        default: nil
        }
    }
}

private func isLookup(_ action: Action) -> Bool {
    if case .lookup = action { true } else { false }
}

private func checkedIn(
    _ attendee: AttendeeSummary = ada(),
    outcome: ControlResponse.Outcome = .checkedIn
) -> ControlResponse {
    var response = ControlResponse(outcome: outcome)
    response.attendee = attendee
    response.checkIn = PresenceSummary(atMillis: 1_000, kioskName: "Hall A", location: "North door")
    return response
}

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
        #expect(shown(start) == ["== DevConf 2026 · check-in · kiosk Hall A ==", "Check-in opens at 10:00."])
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
        #expect(start == [.show("== DevConf 2026 · check-in · kiosk Hall A =="), .prompt(mainPrompt)])

        #expect(s.handle(.line("  ada@example.com ")) == [.lookup("ada@example.com")])
        #expect(s.state == .awaitingLookup)

        let found = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: true)))
        #expect(found == [.show("Found: Ada Lovelace (Analytical)"), .prompt(confirmPrompt)])

        #expect(s.handle(.line("y")) == [.checkIn(key: "ada@example.com")])
        #expect(s.state == .awaitingCheckIn)

        let welcome = s.handle(.answered(checkedIn()))
        #expect(welcome == [.show("Welcome, Ada! You are checked in at 09:14."), .prompt(notePrompt)])

        #expect(
            s.handle(.line("  Looking forward to it  ")) == [
                .note(key: "ada@example.com", text: "Looking forward to it")
            ]
        )
        let thanks = s.handle(.answered(ControlResponse(outcome: .noted)))
        #expect(thanks == [.show("Thank you, your note is in the guestbook."), .show(""), .prompt(mainPrompt)])
        #expect(s.state == .idle)
    }

    @Test func yesInSeveralLanguages() {
        for answer in ["y", "Y", "yes", " YES ", "ja", "oui", "si", "sí"] {
            var s = screen()
            _ = s.handle(.line("ada@example.com"))
            _ = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: true)))
            #expect(s.handle(.line(answer)) == [.checkIn(key: "ada@example.com")], "\(answer)")
        }
    }

    @Test func emptyNoteGoesBackToTheMainPrompt() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: true)))
        _ = s.handle(.line("y"))
        _ = s.handle(.answered(checkedIn()))
        let actions = s.handle(.line("   "))
        #expect(actions == [.show("Enjoy the event!"), .show(""), .prompt(mainPrompt)])
        #expect(s.state == .idle)
    }

    @Test func longNoteIsCappedAndRefusedNoteShowsTheMessage() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: true)))
        _ = s.handle(.line("y"))
        _ = s.handle(.answered(checkedIn()))
        let actions = s.handle(.line(String(repeating: "n", count: 1_000)))
        guard case .note(_, let text) = actions.first else {
            Issue.record("no note action: \(actions)")
            return
        }
        #expect(text.count == Limits.maxNoteCharacters)
        let refused = s.handle(
            .answered(ControlResponse(outcome: .refused, message: "A note can only follow a check-in."))
        )
        #expect(shown(refused).first == "A note can only follow a check-in.")
        #expect(prompts(refused) == [mainPrompt])
    }

    @Test func declineDoesNotCheckIn() {
        for answer in ["n", "", "no", "maybe", "yess"] {
            var s = screen()
            _ = s.handle(.line("ada@example.com"))
            _ = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: true)))
            let actions = s.handle(.line(answer))
            #expect(actions == [.show("Not checked in."), .prompt(mainPrompt)], "\(answer)")
            #expect(s.state == .idle)
        }
    }

    // MARK: - Lookup outcomes

    @Test func notFoundSaysSorry() {
        var s = screen()
        _ = s.handle(.line("nobody@example.com"))
        let actions = s.handle(.lookedUp(.notFound))
        #expect(shown(actions).first?.hasPrefix("Sorry, no ticket or email matches.") == true)
        #expect(prompts(actions) == [mainPrompt])
        #expect(s.state == .idle)
    }

    @Test func alreadyInNamesKioskAndTime() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        let presence = PresenceSummary(atMillis: 42, kioskName: "Hall B", location: "South door")
        let actions = s.handle(.lookedUp(.found(ada(), alreadyIn: presence, admitted: true)))
        #expect(
            shown(actions).first
                == "Ada Lovelace (Analytical) is already checked in at 09:14 at kiosk Hall B (South door)."
        )
        #expect(!actions.contains { if case .checkIn = $0 { true } else { false } })
        #expect(s.state == .idle)
    }

    @Test func formatTimeReceivesThePresenceTime() {
        var s = KioskScreen(
            context: KioskScreen.Context(kioskName: "K", campaignName: "C", refusal: nil),
            formatTime: { "t=\($0)" }
        )
        _ = s.handle(.line("ada@example.com"))
        let presence = PresenceSummary(atMillis: 1_234, kioskName: "Hall B", location: "")
        let actions = s.handle(.lookedUp(.found(ada(company: ""), alreadyIn: presence, admitted: true)))
        #expect(shown(actions).first == "Ada Lovelace is already checked in at t=1234 at kiosk Hall B.")
    }

    @Test func notAdmittedGoesToTheStaffDesk() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        let actions = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: false)))
        #expect(
            shown(actions).first
                == "Ada Lovelace (Analytical): this ticket is not valid for check-in. Please see the staff desk."
        )
        #expect(s.state == .idle)
    }

    @Test func refusedLookupShowsTheReason() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        let actions = s.handle(.lookedUp(.refused("Check-in closed at 18:00.")))
        #expect(shown(actions).first == "Check-in closed at 18:00.")
    }

    @Test func checkInAnswersOtherThanSuccess() {
        func answer(_ response: ControlResponse) -> [Action] {
            var s = screen()
            _ = s.handle(.line("ada@example.com"))
            _ = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: true)))
            _ = s.handle(.line("y"))
            return s.handle(.answered(response))
        }
        #expect(
            shown(answer(checkedIn(outcome: .alreadyCheckedIn))).first
                == "Ada Lovelace (Analytical) is already checked in at 09:14 at kiosk Hall A (North door)."
        )
        #expect(shown(answer(ControlResponse(outcome: .notFound))).first == "Sorry, no ticket or email matches.")
        #expect(
            shown(answer(ControlResponse(outcome: .refused, message: "Check-in closed at 18:00."))).first
                == "Check-in closed at 18:00."
        )
        #expect(shown(answer(ControlResponse(outcome: .error))).first == "Not checked in. Please see the staff desk.")
        for actions in [answer(ControlResponse(outcome: .notFound)), answer(ControlResponse(outcome: .error))] {
            #expect(prompts(actions) == [mainPrompt])
        }
    }

    @Test func daemonFailureIsReportedAndTheScreenContinues() {
        var s = screen()
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: true)))
        _ = s.handle(.line("y"))
        let actions = s.handle(.failed("musterd closed the connection before answering; the outcome is unknown"))
        #expect(shown(actions).first?.hasPrefix("Sorry, something went wrong: musterd closed") == true)
        #expect(shown(actions).first?.hasSuffix("Please see the staff desk.") == true)
        #expect(s.state == .idle)
        #expect(s.handle(.line("ada@example.com")) == [.lookup("ada@example.com")])
    }

    @Test func eventsInTheWrongStateAreIgnored() {
        var s = screen()
        // An answer while idle: just the prompt again.
        #expect(s.handle(.answered(checkedIn())) == [.prompt(mainPrompt)])
        #expect(s.handle(.lookedUp(.notFound)) == [.prompt(mainPrompt)])
        _ = s.handle(.line("ada@example.com"))
        // A line while waiting for the lookup does nothing.
        #expect(s.handle(.line("y")) == [])
        #expect(s.state == .awaitingLookup)
        // A check-in answer while confirming does not skip the confirmation.
        _ = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: true)))
        #expect(s.handle(.answered(checkedIn())) == [])
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
        #expect(s.handle(.line(" linus@walkin.example ")) == [.prompt("Company (optional): ")])
        var draft = KioskScreen.Draft()
        draft.firstName = "Linus"
        draft.lastName = "Walker"
        draft.email = "linus@walkin.example"
        draft.company = "Kernel Co"
        #expect(s.handle(.line("Kernel Co")) == [.register(draft)])
        #expect(s.state == .awaitingRegistration)

        var response = ControlResponse(outcome: .registered)
        response.attendee = AttendeeSummary(
            campaignID: "c1",
            key: "linus@walkin.example",
            firstName: "Linus",
            lastName: "Walker",
            company: "Kernel Co",
            ticket: "W-ABCD1234"
        )
        response.ticket = "W-ABCD1234"
        response.checkIn = PresenceSummary(atMillis: 5, kioskName: "Hall A", location: "")
        let welcome = s.handle(.answered(response))
        #expect(
            welcome == [
                .show("Welcome, Linus! You are checked in at 09:14."),
                .show("Your ticket code is W-ABCD1234. Keep it for re-entry."),
                .prompt(notePrompt),
            ]
        )
        #expect(s.state == .noting(key: "linus@walkin.example", firstName: "Linus"))
    }

    @Test func emptyCompanyIsAllowed() {
        var s = screen()
        for line in ["new", "Linus", "Walker", "linus@walkin.example"] { _ = s.handle(.line(line)) }
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
        #expect(s.handle(.line("ada@example.com")) == [.lookup("ada@example.com")])
    }

    @Test func registeringAnAlreadyRegisteredEmailShowsTheMessage() {
        var s = screen()
        for line in ["new", "Ada", "Lovelace", "ada@example.com"] { _ = s.handle(.line(line)) }
        _ = s.handle(.line(""))
        var response = checkedIn()
        response.message = "You are already registered for this event."
        let actions = s.handle(.answered(response))
        #expect(
            shown(actions) == [
                "You are already registered for this event.", "Welcome, Ada! You are checked in at 09:14.",
            ]
        )
        #expect(prompts(actions) == [notePrompt])
    }

    // MARK: - Context changes

    @Test func newCampaignResetsToIdleWithNewBanner() {
        var s = screen(campaign: "DevConf 2026")
        _ = s.handle(.started)
        _ = s.handle(.line("ada@example.com"))
        _ = s.handle(.lookedUp(.found(ada(), alreadyIn: nil, admitted: true)))
        #expect(s.state == .confirming(ada()))

        let newContext = KioskScreen.Context(kioskName: "Hall A", campaignName: "Partner Day", refusal: nil)
        let actions = s.update(context: newContext)
        #expect(actions == [.show(""), .show("== Partner Day · check-in · kiosk Hall A =="), .prompt(mainPrompt)])
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

    static let forbidden: Set<UInt32> = [0x1B, 0x9B, 0x07, 0x202E, 0x00, 0x7F, 0x0D]

    private func assertClean(_ actions: [Action], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts(actions) {
            let bad = text.unicodeScalars.filter { Self.forbidden.contains($0.value) }
            #expect(bad.isEmpty, "\(label): \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    @Test func controlSequencesNeverReachTheScreen() {
        let evil = "\u{1B}[2J\u{9B}31m\u{07}\u{202E}\u{0}\u{7F}\r"
        let attendee = AttendeeSummary(
            campaignID: "c1",
            key: "eve@example.com",
            firstName: "Eve\(evil)",
            lastName: "\(evil)Mallory",
            company: "Evil\(evil)Corp",
            ticket: "T\(evil)"
        )
        let presence = PresenceSummary(atMillis: 1, kioskName: "Hall\(evil)B", location: "Door\(evil)")
        let context = KioskScreen.Context(kioskName: "K\(evil)", campaignName: "Conf\(evil)", refusal: nil)

        var all: [Action] = []
        var s = KioskScreen(context: context, formatTime: { _ in "09:14" })
        all += s.handle(.started)
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.found(attendee, alreadyIn: nil, admitted: true)))
        all += s.handle(.line("y"))
        var response = ControlResponse(outcome: .checkedIn, message: "Hi\(evil)")
        response.attendee = attendee
        response.checkIn = presence
        all += s.handle(.answered(response))
        all += s.handle(.line("note\(evil)"))
        all += s.handle(.answered(ControlResponse(outcome: .refused, message: "No\(evil)")))
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.found(attendee, alreadyIn: presence, admitted: true)))
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.found(attendee, alreadyIn: nil, admitted: false)))
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.refused("Closed\(evil)")))
        all += s.handle(.line("eve@example.com"))
        all += s.handle(.lookedUp(.found(attendee, alreadyIn: nil, admitted: true)))
        all += s.handle(.line("y"))
        var already = ControlResponse(outcome: .alreadyCheckedIn)
        already.attendee = attendee
        already.checkIn = presence
        all += s.handle(.answered(already))
        all += s.handle(.line("new"))
        all += s.handle(.line("Eve\(evil)"))
        all += s.handle(.line("Mal\(evil)lory"))
        all += s.handle(.line("eve\(evil)@example.com"))
        all += s.handle(.line("eve@example.com"))
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
        var registered = ControlResponse(outcome: .registered, message: "M\(evil)")
        registered.attendee = attendee
        registered.ticket = "W-\(evil)"
        registered.checkIn = presence
        all += s.handle(.answered(registered))
        all += s.handle(.failed("socket\(evil)gone"))
        all += s.update(
            context: KioskScreen.Context(kioskName: "K2\(evil)", campaignName: "C2\(evil)", refusal: "R\(evil)")
        )
        all += s.handle(.line("x"))
        all += s.update(context: KioskScreen.Context(kioskName: "K3\(evil)", campaignName: nil, refusal: nil))

        #expect(texts(all).count > 30)
        assertClean(all, "flow")
        // The names still come through, minus the control characters.
        #expect(texts(all).contains { $0.contains("Welcome, Eve") })
        #expect(texts(all).contains { $0.contains("Mallory (Evil") })
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
