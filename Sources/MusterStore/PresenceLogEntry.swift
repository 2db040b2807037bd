/// One line of the check-in log export.
public struct PresenceLogEntry: Sendable, Equatable {
    public let presence: PresenceRecord
    public let campaignName: String
    public let attendee: AttendeeRecord?
    public let note: String?
}
