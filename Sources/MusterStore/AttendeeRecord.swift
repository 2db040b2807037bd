/// One attendee of a campaign with their check-in state.
public struct AttendeeRecord: Sendable, Equatable {
    public let campaignID: String
    public let key: String
    public let email: String
    public let firstName: String
    public let lastName: String
    public let company: String
    public let ticket: String?
    public let walkInTickets: [String]
    public let salesforceID: String?
    public let status: String?
    public let admitted: Bool
    public let imported: Bool
    public let walkIn: Bool
    /// The check-in shown everywhere: the earliest by (hlc, author) that was not undone.
    public let firstArrival: PresenceRecord?
    /// The newest presence that was not undone, by (hlc, author, seq): for display only; whether
    /// someone is inside is ``openArrivals``'s.
    public let latest: PresenceRecord?
    /// Arrivals that no check-out has ended (a check-out names the arrivals it ends).
    public internal(set) var openArrivals: [PresenceRecord] = []

    public var isCheckedIn: Bool { firstArrival != nil }
    /// Inside while an arrival is open: causality (which check-ins a check-out named), not clocks.
    public var isInside: Bool { !openArrivals.isEmpty }
    public var displayName: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }
}
