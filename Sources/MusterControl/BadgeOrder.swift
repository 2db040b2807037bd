public import MusterCore

/// A `badge` request: whose badge, and why it is printed.
public struct BadgeOrder: Sendable, Equatable {
    /// How the request names the attendee.
    public enum Attendee: Sendable, Equatable {
        /// The attendee key a check-in returned: the public screen's self-service badge.
        case key(String)
        /// An email or ticket code: staff at the desk.
        case query(String)
    }

    public var attendee: Attendee
    /// Self-service (the screen's, and the default on the wire), reprint or print-only (staff's).
    public var reason: BadgePayload.Reason

    public init(attendee: Attendee, reason: BadgePayload.Reason = .selfService) {
        self.attendee = attendee
        self.reason = reason
    }

    /// The attendee key, when the request names the attendee by one.
    public var attendeeKey: String? {
        guard case .key(let key) = attendee else { return nil }
        return key
    }
}
