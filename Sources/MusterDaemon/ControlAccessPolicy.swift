public import MusterControl
import MusterCore

/// What each kind of peer may ask of the control socket: a pure function of the request and the
/// peer's role, so the whole policy is one table to read and test.
///
/// The public screen (``ControlPeerRole/screen``) may send exactly what ``MusterClient``'s
/// `KioskSession` sends for one attendee: `screen` (the lock), `lookup`, `checkin` after a "yes",
/// `register` for a walk-in, `note` for the guestbook, and `badge` for the self-service badge. It
/// may not check anyone out, submit organizer deltas, read status or heads, or reprint a badge
/// (only staff reprint), so a process that escapes the screen can do no more than the screen.
///
/// What the screen is told is not this policy's business: its answers are ``ScreenAnswer``s, which
/// have no field for what it may not know.
public enum ControlAccessPolicy {
    /// Whether a peer of `role` may send `request`.
    public static func allows(_ request: ControlRequest, role: ControlPeerRole) -> Bool {
        guard allows(request.operation, role: role) else { return false }
        // The screen asks for the self-service badge only; a reprint is staff's.
        guard role == .screen, case .badge(let order) = request else { return true }
        return order.reason == .selfService
    }

    /// Whether a peer of `role` may send a line of a known operation that could not be read whole
    /// (``ControlRequestError/Code/incomplete``): by its operation, and the screen's badge only if its
    /// reason was not what spoiled it (a reason the daemon does not know is not the self-service one).
    public static func allows(incomplete error: ControlRequestError, role: ControlPeerRole) -> Bool {
        guard let operation = error.operation, allows(operation, role: role) else { return false }
        return role != .screen || operation != .badge || error.field != .badgeReason
    }

    /// The table by operation.
    static func allows(_ operation: ControlRequest.Operation, role: ControlPeerRole) -> Bool {
        switch role {
        case .staff: return true
        case .other: return false
        case .screen: break
        }
        switch operation {
        // `redeem`: a screen running as an add-on desk (`[screen] redeem`).
        // `checkin_party`: the rest of the order of whoever just checked in (a count comes back).
        // `attend`: a session door's scan, with a spot's code when one was typed (issue 36).
        case .screen, .lookup, .checkIn, .register, .note, .badge, .redeem, .checkInParty, .attend: return true
        // Opening a spot is the host's, a member of staff at this kiosk.
        case .openSpot: return false
        // Confirming an attention ticket is staff's: the screen's user sends the plain check-in.
        case .checkOut, .head, .submit, .status, .ping, .replaceBadge, .confirmCheckIn: return false
        }
    }

    /// The sentence a refused peer reads: what it may not do and who may, never anything of the data.
    public static func refusal(_ operation: ControlRequest.Operation, role: ControlPeerRole) -> String {
        switch role {
        case .screen:
            "the kiosk screen's user may not send '\(operation.rawValue)'; staff commands run as user muster"
        case .other, .staff:
            "this user may not use musterd's control socket; run muster as user muster (or root)"
        }
    }
}
