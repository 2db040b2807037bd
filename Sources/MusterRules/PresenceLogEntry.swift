/// One line of the check-in log export.
public struct PresenceLogEntry: Sendable, Equatable {
    public let presence: PresenceRecord
    public let campaignName: String
    public let attendee: AttendeeRecord?
    public let note: String?

    /// Memberwise, for the stores that build it from their rows.
    package init(presence: PresenceRecord, campaignName: String, attendee: AttendeeRecord?, note: String?) {
        self.presence = presence
        self.campaignName = campaignName
        self.attendee = attendee
        self.note = note
    }
}
