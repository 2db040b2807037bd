public import MusterCore

/// Every sentence the public kiosk screen can say, as data: ``KioskCatalog`` turns one into words in
/// the attendee's language, so a missing translation is a compile error rather than an English line
/// on a German kiosk.
///
/// Values carried in a case (names, times, codes) are already sanitized and isolated by the screen.
/// Every outcome states itself in words first ("Checked in", "Not found", "See staff"), never by colour
/// or sound alone (EN 301 549).
public enum KioskMessage: Sendable, Equatable {
    /// The banner while no campaign is locked.
    case title(kiosk: String)
    /// The banner of a locked campaign.
    case banner(campaign: String, kiosk: String)
    /// A staff line: the kiosk hears no other kiosk (`zone` nil) or none of its own zone, since `time`.
    case workingAlone(since: String, zone: String?)
    case waitingForEvent
    /// How to switch language, in every language at once (a person who needs it cannot read the others).
    case languageHint
    /// After an attendee typed a language code.
    case languageChosen
    case mainPrompt
    /// Before confirmation: the masked name only ("Ada L.").
    case found(name: String)
    case confirmPrompt
    case notCheckedIn
    case notFound
    /// After repeated misses: see staff, and the wait before the next try.
    case seeStaff(seconds: Int)
    case notValid(name: String)
    /// When, never where.
    case alreadyIn(name: String, time: String)
    case checkedIn(time: String)
    case welcome(firstName: String)
    /// The large-type welcome, in capital ASCII letters only (``BlockLetters`` draws it).
    case welcomeWord
    case ticketCode(String)
    case scanAtReEntry
    case notePrompt
    case noteSaved
    case noteNotSaved
    case enjoy
    case registrationStart
    case firstNamePrompt
    case lastNamePrompt
    case lastNameRequired
    case emailPrompt
    case notAnEmail
    case companyPrompt
    case registrationCancelled
    /// `new` with an email already on the list: said without the name.
    case emailRegistered
    case failed(detail: String)
    /// A refusal whose reason came from the daemon (in English).
    case refused(detail: String)
    /// A door rule refused the check-in (issue 16): said from the stable reason code, so it is in the
    /// attendee's language; the daemon's English words (with times and counts) go to `--json` and staff.
    case doorRefused(DoorReason)
    case seeStaffDesk
    /// Badges (issue 15): shown while the daemon prints (a label takes a second or three).
    case badgePrinting
    case badgePrinted
    /// Printed on a peer's printer, this kiosk's could not (`[badge] fallback`): where to collect it.
    case badgePrintedAt(place: String)
    /// Any failure: the attendee is checked in all the same, and staff can reprint.
    case badgeNotPrinted
    /// The reprint guard: a badge for this attendee was already printed on some kiosk.
    case badgeAlreadyPrinted
    /// Others of the attendee's order are not inside yet (a count, never who): check them in too?
    case partyPrompt(count: Int)
    case partyCheckedIn(count: Int)
    /// Some of the order could not be checked in (each for a reason of their own): staff will see.
    case partySeeStaff(count: Int)
    case partyNotCheckedIn
    /// An add-on desk (`[screen] redeem`): what it hands out, under the banner.
    case redeemDesk(addon: String)
    /// Handed out: the add-on, and the first name of whom it went to.
    case handedOut(addon: String, firstName: String)
    /// A session door (issue 36), under the banner: the session open now and when it ends.
    case sessionOpen(name: String, until: String)
    /// A session door between sessions.
    case betweenSessions
    /// A spot's six digits were typed: now the email or ticket code.
    case spotCodeTaken
    /// Attendance recorded: the session's name and the attendee's own first name.
    case attended(session: String, firstName: String)
    /// A second scan in the same session: checked out of it.
    case leftSession(session: String)
}

extension KioskMessage {
    /// A badge came out, here or at a peer: the outcome the screen sounds no failure for.
    var isBadgePrinted: Bool {
        switch self {
        case .badgePrinted, .badgePrintedAt: true
        default: false
        }
    }
}
