import MusterControl
import MusterCore

/// What each kind of peer may ask of the control socket: a pure function of the request and the
/// peer's role, so the whole policy is one table to read and test.
///
/// The public screen (``ControlPeerRole/screen``) may send exactly what ``MusterClient``'s
/// `KioskSession` sends for one attendee: `screen` (the lock), `lookup`, `checkin` after a "yes",
/// `register` for a walk-in, `note` for the guestbook, and `badge` for the self-service badge. It
/// may not check anyone out, submit organizer deltas, read status or heads, or reprint a badge
/// (only staff reprint), so a process that escapes the screen can do no more than the screen.
public enum ControlAccessPolicy {
    /// Whether a peer of `role` may send `request`.
    public static func allows(_ request: ControlRequest, role: ControlPeerRole) -> Bool {
        switch role {
        case .staff: return true
        case .other: return false
        case .screen: break
        }
        switch request.op {
        case .screen, .lookup, .checkIn, .register, .note: return true
        case .badge:
            // The screen asks for the self-service badge only (its default reason); a reprint is staff's.
            let reason = request.badgeReason ?? BadgePayload.Reason.selfService.description
            return reason == BadgePayload.Reason.selfService.description
        case .checkOut, .head, .submit, .status, .ping: return false
        }
    }

    /// The sentence a refused peer reads: what it may not do and who may, never anything of the data.
    public static func refusal(_ request: ControlRequest, role: ControlPeerRole) -> String {
        switch role {
        case .screen:
            "the kiosk screen's user may not send '\(request.op.rawValue)'; staff commands run as user muster"
        case .other, .staff:
            "this user may not use musterd's control socket; run muster as user muster (or root)"
        }
    }
}
