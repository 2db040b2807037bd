public import MusterCore

/// The control socket protocol: one JSON object per line each way, request then response.
///
/// `muster` uses it for every write; reads go straight to the replica. One case per operation, each
/// with exactly what that operation needs, so the daemon never checks at run time whether a field it
/// needs is there: a line without it is refused where it is read (``ControlRequestError``). On the
/// wire a request stays one flat object, `{"op":"checkin","query":"…"}`, so that a shell script with
/// `socat` speaks it too, and so do older daemons and clients (`ControlRequest+Codable.swift`).
public enum ControlRequest: Sendable, Equatable {
    /// A door scan or a confirmed check-in: the email or ticket code, as typed or scanned.
    case checkIn(query: String)
    /// Staff saw the attendee of an attention ticket (``AttendeeDetails/attention``) and admit them:
    /// every other door rule still holds, and the check-in is followed by a note naming `staff`.
    case confirmCheckIn(query: String, staff: String)
    case checkOut(query: String)
    /// The rest of an order checked in with one answer (issue 35): `query` is an email or ticket code
    /// of one of its members, or the order's code; each member not inside is judged by the door's rules.
    case checkInParty(query: String)
    /// An add-on desk hands `addon` out to the attendee (email or ticket code), once venue-wide.
    case redeem(addon: String, query: String)
    /// A walk-in registers and is checked in.
    case register(WalkInRegistration)
    /// A guestbook note for the attendee a check-in just returned (named by its attendee key).
    case note(attendeeKey: String, text: String)
    /// The head of an author's chain, so the organizer's `muster` signs on top of it.
    case head(author: AuthorID)
    /// Signed deltas built by the organizer's `muster`.
    case submit(OrganizerSubmission)
    case status
    case ping
    /// Print the attendee's badge (issue 15): after a self-service check-in, or by staff.
    case badge(BadgeOrder)
    /// The public screen's lookup (issue 14): answers only a masked name, whether the ticket is valid, and
    /// the time of an earlier check-in, so the screen needs no replica and learns nothing it would not show.
    case lookup(query: String)
    /// The public screen's view of the lock: the campaign's name and why check-in is refused, if it is.
    case screen
    /// Staff replace a lost or stolen badge's code (issue 37): the attendee (email or ticket code) gets
    /// a new one and every kiosk refuses the old; `restore` gives the list's code back instead.
    case replaceBadge(query: String, restore: Bool)
    /// A session door (issue 36): the attendee (email or ticket code) enters the session open in this
    /// kiosk's zone now, or leaves it when already in; with `code`, the open spot that has that code.
    case attend(query: String, code: String?)
    /// A host opens a check-in spot at this kiosk (staff): a session of this kiosk's zone that starts
    /// now, lasts `seconds`, and gets a six-digit code.
    case openSpot(name: String, seconds: Int)

    /// The operation's name on the wire (`op`): what the access policy, the logs and a line that could
    /// not be read as a whole request still know of it.
    public enum Operation: String, Sendable, CaseIterable {
        case checkIn = "checkin"
        case confirmCheckIn = "checkin_confirmed"
        case redeem
        case checkInParty = "checkin_party"
        case checkOut = "checkout"
        case register
        case note
        case head
        case submit
        case status
        case ping
        case badge
        case lookup
        case screen
        case replaceBadge = "replace_badge"
        case attend
        case openSpot = "open_spot"
    }

    public var operation: Operation {
        switch self {
        case .checkIn: .checkIn
        case .confirmCheckIn: .confirmCheckIn
        case .redeem: .redeem
        case .checkInParty: .checkInParty
        case .checkOut: .checkOut
        case .register: .register
        case .note: .note
        case .head: .head
        case .submit: .submit
        case .status: .status
        case .ping: .ping
        case .badge: .badge
        case .lookup: .lookup
        case .screen: .screen
        case .replaceBadge: .replaceBadge
        case .attend: .attend
        case .openSpot: .openSpot
        }
    }
}
