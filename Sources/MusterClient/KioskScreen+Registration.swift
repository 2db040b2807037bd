import MusterCore

extension KioskScreen {
    /// One field of a walk-in registration. After the email the screen asks the daemon whether that
    /// email is on the list already: if so, the person confirms as after a lookup (without the name
    /// being printed), instead of registering someone else's address and checking that person in.
    mutating func registrationInput(_ draft: inout Draft, field: Field, text: String) -> [Action] {
        let value = TerminalText.sanitize(text).trimmingWhitespace()
        switch field {
        case .firstName:
            guard !value.isEmpty else { return finish(.registrationCancelled) }
            draft.firstName = value
            state = .registering(draft, .lastName)
            return [.prompt(self.text(.lastNamePrompt))]
        case .lastName:
            guard !value.isEmpty else { return [.prompt(self.text(.lastNameRequired))] }
            draft.lastName = value
            state = .registering(draft, .email)
            return [.prompt(self.text(.emailPrompt))]
        case .email:
            guard EmailAddress.isPlausible(value) else {
                return [.show(self.text(.notAnEmail)), .prompt(self.text(.emailPrompt))]
            }
            draft.email = value
            state = .checkingEmail(draft)
            return [.lookup(value)]
        case .company:
            draft.company = value
            state = .awaitingRegistration
            return [.register(draft)]
        }
    }

    /// The answer to "is this email on the list?" during a registration. What is printed is the email
    /// the person typed themselves, never the name on the record.
    mutating func emailChecked(_ draft: Draft, _ result: LookupResult) -> [Action] {
        switch result {
        case .notFound:
            state = .registering(draft, .company)
            return [.prompt(text(.companyPrompt))]
        case .refused(let message):
            return finish(.refused(detail: safe(message)), cue: .failure)
        case .throttled(let seconds):
            return finish(.seeStaff(seconds: seconds), cue: .failure)
        case .found(let match):
            guard match.admitted else { return finish(.seeStaffDesk, cue: .failure) }
            if let at = match.checkedInAtMillis {
                return finish(.alreadyIn(name: ScreenName.display(draft.email), time: formatTime(at)), cue: .success)
            }
            state = .confirming(Match(query: draft.email, maskedName: "", admitted: true))
            return [.prompt(text(.emailRegistered))]
        }
    }
}
