public import MusterCore

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
    /// What the list says of the ticket (type, order, add-ons, attention, validity); nil: nothing.
    public let details: AttendeeDetails?
    /// The check-in shown everywhere: the earliest by (hlc, author) that was not undone.
    public let firstArrival: PresenceRecord?
    /// The newest presence that was not undone, by (hlc, author, seq): for display only; whether
    /// someone is inside is ``openArrivals``'s.
    public let latest: PresenceRecord?
    /// Arrivals that no check-out has ended (a check-out names the arrivals it ends).
    public internal(set) var openArrivals: [PresenceRecord] = []
    /// Every live arrival (check-in or walk-in registration), open or ended, oldest first: what the
    /// door rules count entries by (read with the record, so a door scan reads them once).
    public let arrivals: [PresenceRecord]

    public var isCheckedIn: Bool { firstArrival != nil }
    /// Inside while an arrival is open: causality (which check-ins a check-out named), not clocks.
    public var isInside: Bool { !openArrivals.isEmpty }
    public var displayName: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }

    /// Memberwise, for the stores that build it from their rows.
    package init(
        campaignID: String,
        key: String,
        email: String,
        firstName: String,
        lastName: String,
        company: String,
        ticket: String?,
        walkInTickets: [String],
        salesforceID: String?,
        status: String?,
        admitted: Bool,
        imported: Bool,
        walkIn: Bool,
        details: AttendeeDetails? = nil,
        firstArrival: PresenceRecord?,
        latest: PresenceRecord?,
        openArrivals: [PresenceRecord] = [],
        arrivals: [PresenceRecord]? = nil
    ) {
        self.campaignID = campaignID
        self.key = key
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.ticket = ticket
        self.walkInTickets = walkInTickets
        self.salesforceID = salesforceID
        self.status = status
        self.admitted = admitted
        self.imported = imported
        self.walkIn = walkIn
        self.details = details
        self.firstArrival = firstArrival
        self.latest = latest
        self.openArrivals = openArrivals
        self.arrivals = arrivals ?? firstArrival.map { [$0] } ?? []
    }
}
