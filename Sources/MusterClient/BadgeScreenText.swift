public import MusterControl

/// The kiosk screen's English lines about the badge (issue 15), kept apart so that the screen's
/// catalog (issue 14) can take them over as they are.
public enum BadgeScreenText {
    /// Shown while the daemon prints; a label takes a second or three.
    public static let printing = "Printing your badge…"
    public static let printed = "Your badge is ready — please take it from the printer."
    /// Any failure (no answer, no printer reachable, queue stopped, out of labels): the attendee
    /// is checked in all the same, and staff can reprint.
    public static let notPrinted = "Your badge could not be printed — please see the staff desk."
    /// The reprint guard: a badge for this attendee was already printed on some kiosk.
    public static let alreadyPrinted = "A badge was already printed for you — please see the staff desk for another."

    /// The line for the daemon's answer to a self-service `badge` request.
    public static func line(for response: ControlResponse) -> String {
        switch response.outcome {
        case .badgePrinted: printed
        case .badgeAlreadyPrinted: alreadyPrinted
        default: notPrinted
        }
    }
}
