public import MusterCore

/// Which of an attendee's codes opens a door once badges have been replaced: one rule for every
/// door, the staff desk and the badge printer, so a code dead on one kiosk is dead on every kiosk
/// that has heard the same replacements.
///
/// The replacements form a grow-only set; the newest by the replicas' one order (hlc, author, seq)
/// decides: its new code is the one valid code, or, when it gave the list's codes back
/// (`--restore`), the list's are. Every other code the attendee ever had is dead. Two desks cut off
/// from each other that both replace the same badge end, once they meet, on the later replacement
/// everywhere; the earlier one's new badge is then dead too, and staff reprint.
public enum BadgeCodes {
    /// The code a badge should carry now: the newest replacement's, or `listed` (the attendee's
    /// ``AttendeeRecord/badgeCode``) when there is none or it was undone.
    public static func current(listed: String, replacements: [CodeReplacement]) -> String {
        newest(replacements).flatMap(\.code) ?? listed
    }

    /// The replacement that made `query` a dead code of this attendee, or nil when `query` is a
    /// valid code or none of theirs. `listed` are the codes the list gave them (ticket, walk-in
    /// tickets); codes are compared as typed ones are (``TicketCode/normalize(_:)``).
    public static func killed(_ query: String, listed: [String], replacements: [CodeReplacement]) -> CodeReplacement? {
        guard let newest = newest(replacements) else { return nil }
        let typed = TicketCode.normalize(query)
        let valid = (newest.code.map { [$0] } ?? listed).map(TicketCode.normalize)
        guard !typed.isEmpty, !valid.contains(typed) else { return nil }
        let issued = (listed + replacements.compactMap(\.code)).map(TicketCode.normalize)
        return issued.contains(typed) ? newest : nil
    }

    public static func newest(_ replacements: [CodeReplacement]) -> CodeReplacement? {
        replacements.max { Conflicts.order($0) < Conflicts.order($1) }
    }
}
