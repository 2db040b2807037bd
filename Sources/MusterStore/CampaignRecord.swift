/// A campaign with its live counts.
public struct CampaignRecord: Sendable, Equatable {
    public let id: String
    public let name: String
    public let attendees: Int
    public let checkedIn: Int
}
