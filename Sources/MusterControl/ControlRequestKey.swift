/// The field names of a request line: the wire format, in one place. Add names, never rename them.
public enum ControlRequestKey: String, CodingKey, Sendable {
    case op
    /// Email or ticket code (`checkin`, `checkout`, `lookup`, `badge` by staff).
    case query
    case firstName
    case lastName
    case email
    case company
    /// The attendee key a check-in returned (`note`, the screen's `badge`).
    case attendeeKey
    case text
    /// Hex public key (`head`).
    case author
    case deltas
    case certificate
    case stage
    case staged
    /// `self-service` (when absent), `reprint` or `print-only`.
    case badgeReason
    /// `replace_badge`: give the list's code back instead of a new one.
    case restore
    /// `checkin_confirmed`: who confirmed an attention ticket (the staff member's name).
    case staff
    /// `redeem`: the add-on a desk hands out (issue 35).
    case addon
    /// `attend`: a spot's six-digit code, when one was typed (issue 36).
    case code
    /// `open_spot`: the spot's name and how long it stays open, in seconds.
    case session
    case seconds
}
