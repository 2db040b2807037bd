/// What a kiosk may show about an attendee: their own name and company, never anyone else's data.
public struct AttendeeSummary: Codable, Sendable, Equatable {
    public var campaignID: String
    public var key: String
    public var firstName: String
    public var lastName: String
    public var company: String
    public var ticket: String?
    /// For staff: the list's ticket type, and what staff must know of an attention ticket (its text,
    /// or a default sentence when the list gave none); nil for a ticket without. The public screen's
    /// attendee (``ScreenAttendee``) has no field for either.
    public var ticketType: String?
    public var attention: String?

    public init(
        campaignID: String,
        key: String,
        firstName: String,
        lastName: String,
        company: String,
        ticket: String?,
        ticketType: String? = nil,
        attention: String? = nil
    ) {
        self.campaignID = campaignID
        self.key = key
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.ticket = ticket
        self.ticketType = ticketType
        self.attention = attention
    }
}
