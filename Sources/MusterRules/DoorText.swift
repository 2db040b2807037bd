import MusterCore
import MusterTime

/// The English sentences a door shows for each refusal (issue 16). Kept in one place so the
/// screen's catalog (issue 14) can take them over; the stable codes are ``DoorReason/code``.
public enum DoorText {
    public static let notLocked = "This kiosk is waiting for the organizer to pick the event."
    public static let notFound = "No ticket or email matches."
    public static let notAdmitted = "This ticket is not valid for check-in. Please see the staff desk."
    public static let alreadyInside = "You are already checked in here."
    public static let zoneFull = "This area is full right now. Please wait or ask the staff."
    public static let doorShareFull = "This door has admitted its share of the places. Please use another entrance."
    /// An escrow door the lock does not name (enrolled after the lock was signed).
    public static let doorNotNamed =
        "This door has no share of the places until the organizer locks again. Please use another entrance."
    public static let typeNotAdmitted = "This ticket does not admit to this area. Please see the staff desk."
    /// The same words on the public screen and for staff: the attention text is staff's, read from
    /// the attendee, never part of a refusal's message (which reaches the screen).
    public static let needsStaff = "Please see a member of staff."
    public static let reEntryRefused = "Re-entry is not allowed here once you have left."
    /// What the public screen says of a replaced badge's code (see ``replaced(_:)``).
    public static let replacedOnScreen = "This badge has been replaced by a new one. Please see the staff desk."

    public static func opensAt(_ millis: Int64) -> String { "Check-in opens at \(ClockText.time(millis: millis))." }
    /// A ticket outside its validity (day tickets): when it is valid, in the door's local time.
    public static func notValidNow(from: Int64?, until: Int64?, now: Int64) -> String {
        if let from, now < from { return "This ticket is valid from \(ClockText.dateTime(millis: from))." }
        if let until { return "This ticket was valid until \(ClockText.dateTime(millis: until))." }
        return "This ticket is not valid now."
    }

    /// A desk asked for an add-on the ticket does not carry.
    public static func addonNotBought(_ addon: String) -> String {
        "This ticket does not include \(addon)."
    }

    /// An add-on the organizer confined to other zones' desks.
    public static func wrongDesk(_ addon: String, desks: [String]) -> String {
        "\(addon) is handed out at \(desks.joined(separator: ", ")) only."
    }

    /// What the public screen says of an add-on already handed out (see ``alreadyRedeemed(_:_:)``).
    public static let alreadyRedeemedOnScreen = "This has already been collected."

    /// An add-on already handed out: when and where, for staff (the screen says it in its own words).
    public static func alreadyRedeemed(_ addon: String, _ first: some KioskWrite) -> String {
        let desk = first.location.isEmpty ? first.kioskName : "\(first.kioskName), \(first.location)"
        let when = ClockText.time(millis: Int64(clamping: first.hlc.physicalMillis))
        return "\(addon) was already handed out at \(when) at \(desk)."
    }

    public static func closedAt(_ millis: Int64) -> String { "Check-in closed at \(ClockText.time(millis: millis))." }

    /// For staff (`muster checkin`, `--json`, the audit): when and where the badge was replaced. The
    /// public screen says only that the badge was replaced (its catalog's words): where and when
    /// would tell whoever holds the old badge where its owner went.
    public static func replaced(_ replacement: CodeReplacement) -> String {
        let desk =
            replacement.location.isEmpty ? replacement.kioskName : "\(replacement.kioskName), \(replacement.location)"
        let when = ClockText.time(millis: Int64(clamping: replacement.hlc.physicalMillis))
        return "This badge was replaced at \(when) at \(desk); only the new badge opens the doors."
    }

    public static func entriesUsedUp(_ limit: EntryLimit) -> String {
        switch limit {
        case .perDay(let count) where count > 1: "You have used all \(count) entries for today."
        case .perDay: "You have used today's entry."
        case .once, .unlimited: "This ticket has already been used to enter here."
        }
    }
}
