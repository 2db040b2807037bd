extension KioskCatalog {
    static func english(_ message: KioskMessage) -> String {
        switch message {
        case .title(let kiosk): "== Muster · kiosk \(kiosk) =="
        case .banner(let campaign, let kiosk): "== \(campaign) · check-in · kiosk \(kiosk) =="
        case .waitingForEvent: "This kiosk is waiting for the organizer to pick the event."
        case .languageHint: languageHint
        case .languageChosen: "Language: English."
        case .mainPrompt: "Email or ticket code (or 'new' to register): "
        case .found(let name): "Found: \(name)"
        case .confirmPrompt: "Is this you? Check in now? [y/N] "
        case .notCheckedIn: "Not checked in."
        case .notFound: "Not found: no ticket or email matches. Check the spelling, or type 'new' to register."
        case .seeStaff(let seconds):
            "Not found again. Please see the staff desk. The next try is possible in \(seconds) s."
        case .notValid(let name): "See staff: \(name), this ticket is not valid for check-in."
        case .alreadyIn(let name, let time): "Already checked in: \(name), at \(time)."
        case .checkedIn(let time): "Checked in at \(time)."
        case .welcome(let first): first.isEmpty ? "Welcome!" : "Welcome, \(first)!"
        case .welcomeWord: "WELCOME"
        case .ticketCode(let code): "Your ticket code is \(code). Keep it for re-entry."
        case .scanAtReEntry: "Scan this code at re-entry:"
        case .notePrompt: "Leave a one-line note for the guestbook (or press Enter to skip): "
        case .noteSaved: "Thank you, your note is in the guestbook."
        case .noteNotSaved: "The note was not saved."
        case .enjoy: "Enjoy the event!"
        case .registrationStart: "Walk-in registration (leave the first name empty to cancel)."
        case .firstNamePrompt: "First name: "
        case .lastNamePrompt: "Last name: "
        case .lastNameRequired: "Last name (required): "
        case .emailPrompt: "Email: "
        case .notAnEmail: "That does not look like an email address."
        case .companyPrompt: "Company (optional): "
        case .registrationCancelled: "Registration cancelled."
        case .emailRegistered: "This email is already registered. Is it yours? Check in now? [y/N] "
        case .failed(let detail): "See staff: something went wrong (\(detail)). Please see the staff desk."
        case .refused(let detail): "Not checked in: \(detail)"
        case .seeStaffDesk: "See staff: not checked in. Please see the staff desk."
        case .doorRefused(.notFound): english(.notFound)
        case .doorRefused(.notLocked): english(.waitingForEvent)
        case .doorRefused(.alreadyInside): "Not checked in: you are already inside this area."
        case .doorRefused(.outsideWindow): "Not checked in: check-in is not open at this time."
        case .doorRefused(.zoneFull): "Not checked in: this area is full right now. Please wait or ask the staff."
        case .doorRefused(.entriesUsedUp): "Not checked in: this ticket has no entries left."
        case .doorRefused(.notAdmitted): "See staff: this ticket is not valid for check-in."
        case .doorRefused(.reEntryRefused): "Not checked in: re-entry is not allowed here once you have left."
        case .badgePrinting: "Printing your badge…"
        case .badgePrinted: "Your badge is ready: please take it from the printer."
        case .badgeNotPrinted: "Your badge could not be printed. Please see the staff desk."
        case .badgeAlreadyPrinted: "A badge was already printed for you. Please see the staff desk for another."
        }
    }
}
