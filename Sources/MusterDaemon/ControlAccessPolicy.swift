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

    /// What a peer of `role` is told: staff get the whole answer; the screen only what the screen shows.
    ///
    /// A check-in or walk-in answer names the attendee so the screen can greet them ("Welcome, Ada!")
    /// or say "Already checked in: Ada L., at 09:14". A process escaped from the screen could check in
    /// by guessed tickets or emails, so it gets no company, no ticket of an attendee, the last name
    /// cut to its initial, and an earlier check-in's time without its kiosk or place. The attendee key
    /// stays: the note and the self-service badge name the attendee by it.
    public static func shape(_ response: ControlResponse, for role: ControlPeerRole) -> ControlResponse {
        guard role == .screen else { return response }
        var shaped = response
        if var attendee = shaped.attendee {
            attendee.lastName = attendee.lastName.first.map { String($0) } ?? ""
            attendee.company = ""
            attendee.ticket = nil
            shaped.attendee = attendee
        }
        if var checkIn = shaped.checkIn {
            checkIn.kioskName = ""
            checkIn.location = ""
            shaped.checkIn = checkIn
        }
        // A walk-in's own new ticket is the one ticket the screen shows (and as a QR code).
        if shaped.outcome != .registered { shaped.ticket = nil }
        return shaped
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
