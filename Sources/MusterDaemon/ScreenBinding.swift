public import MusterControl

/// The one attendee the public screen may still write about: the one it has just checked in.
///
/// After a check-in the screen offers a badge and a guestbook note for that attendee, and names them
/// by attendee key. The daemon does not take the screen's word for whose key that is: a process that
/// escaped the screen holds the same socket and could otherwise annotate, or print a badge for, any
/// checked-in attendee (issue 32). It keeps the binding itself, from its own answers: a note or
/// self-service badge from the screen's user must name the attendee of the screen's last check-in or
/// registration, within ``window`` of it; a note ends the binding (one note per check-in).
///
/// A pure value driven by the times it is given, kept by ``ControlGate`` under its lock.
public struct ScreenBinding: Sendable {
    /// How long after a check-in (or the badge answer that follows it) its note may come: the screen's
    /// own note prompt gives up after its idle timeout, so twice that is ample for an honest screen.
    public let window: Duration
    /// The attendee key and until when it may be written about.
    private var bound: (key: String, until: Duration)?

    public init(window: Duration) { self.window = window }

    /// Whether `request` (from the screen's user) may go ahead: a note or badge only for the bound
    /// attendee, in time; anything else is not this rule's business.
    public func allows(_ request: ControlRequest, at now: Duration) -> Bool {
        let named: String?
        switch request {
        case .note(let attendeeKey, _): named = attendeeKey
        case .badge(let order): named = order.attendeeKey
        default: return true
        }
        guard let bound, now <= bound.until else { return false }
        return named == bound.key
    }

    /// `request` with the handle it names the attendee by (``ScreenHandles``) replaced by the bound
    /// attendee's key, when it is that attendee's handle.
    public func resolve(_ request: ControlRequest, handles: ScreenHandles) -> ControlRequest {
        guard let key = bound?.key else { return request }
        let handle = handles.handle(for: key)
        switch request {
        case .note(let named, let text) where named == handle:
            return .note(attendeeKey: key, text: text)
        case .badge(var order) where order.attendeeKey == handle:
            order.attendee = .key(key)
            return .badge(order)
        default:
            return request
        }
    }

    /// Reads the daemon's answer to the screen's request: a check-in or registration binds its
    /// attendee, a badge answer keeps the binding open for the note that follows, a note ends it.
    public mutating func record(_ request: ControlRequest, answer: ControlResponse, at now: Duration) {
        switch (request, answer) {
        case (.checkIn, .checkedIn(let admitted)), (.register, .checkedIn(let admitted)):
            bound = (admitted.attendee.key, now + window)
        case (.register, .registered(let walkIn)):
            bound = (walkIn.attendee.key, now + window)
        case (.badge(let order), _):
            if let key = bound?.key, key == order.attendeeKey { bound = (key, now + window) }
        case (.note, _):
            bound = nil
        default:
            return
        }
    }
}
