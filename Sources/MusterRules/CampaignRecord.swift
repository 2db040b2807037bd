/// A campaign with its live counts.
public struct CampaignRecord: Sendable, Equatable {
    public let id: String
    public let name: String
    public let attendees: Int
    public let checkedIn: Int

    /// Memberwise, for the stores that build it from their rows.
    package init(id: String, name: String, attendees: Int, checkedIn: Int) {
        self.id = id
        self.name = name
        self.attendees = attendees
        self.checkedIn = checkedIn
    }
}
