/// What a kiosk may show about an attendee: their own name and company, never anyone else's data.
public struct AttendeeSummary: Codable, Sendable, Equatable {
    public var campaignID: String
    public var key: String
    public var firstName: String
    public var lastName: String
    public var company: String
    public var ticket: String?

    public init(campaignID: String, key: String, firstName: String, lastName: String, company: String, ticket: String?)
    {
        self.campaignID = campaignID
        self.key = key
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.ticket = ticket
    }
}
