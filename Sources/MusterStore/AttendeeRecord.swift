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
    /// The newest presence that was not undone.
    public let latest: PresenceRecord?

    public var isCheckedIn: Bool { firstArrival != nil }
    /// Inside while the newest presence is an arrival.
    public var isInside: Bool { latest?.isArrival ?? false }
    public var displayName: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }
}
