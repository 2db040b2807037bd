public import MusterCore

/// What one kiosk's materialized state says about the things a lie tries to change: the imported
/// attendees' person fields, and the lying kiosks' presences that count (are live).
public struct KioskFacts: Sendable, Equatable {
    /// By attendee key; nil fields when the attendee is missing.
    public var attendees: [String: AttendeeFacts] = [:]
    public var livePresences: [PresenceFact] = []
}

/// An attendee's person fields, as the import wrote them or as a replica shows them.
public struct AttendeeFacts: Sendable, Equatable {
    public var key: String
    public var email: String
    public var firstName: String
    public var lastName: String
    public var ticket: String?
}

/// A presence that counts on a replica, as it shows it.
public struct PresenceFact: Sendable, Equatable {
    public var ref: DeltaRef
    public var campaignID: String
    public var kioskName: String
    public var location: String
    public var memberStatus: String
}
