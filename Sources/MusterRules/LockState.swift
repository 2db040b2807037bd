public import MusterCore

/// The organizer's current campaign lock as materialized.
public struct LockState: Sendable, Equatable {
    public let version: UInt64
    /// nil when the kiosks are unlocked (waiting for the organizer).
    public let campaignID: String?
    public let campaignName: String?
    public let checkInStatus: String
    public let opensAtMillis: Int64?
    public let closesAtMillis: Int64?
    /// The door rules the lock carries; nil when it carries none (every lock before issue 16).
    public var rules: DoorRules? = nil
    /// The language the lock sets for every kiosk screen (an ISO 639 code); nil: each kiosk's own.
    public var language: String? = nil

    /// Memberwise, for the stores that build it from their rows.
    package init(
        version: UInt64,
        campaignID: String?,
        campaignName: String?,
        checkInStatus: String,
        opensAtMillis: Int64?,
        closesAtMillis: Int64?,
        rules: DoorRules? = nil,
        language: String? = nil
    ) {
        self.version = version
        self.campaignID = campaignID
        self.campaignName = campaignName
        self.checkInStatus = checkInStatus
        self.opensAtMillis = opensAtMillis
        self.closesAtMillis = closesAtMillis
        self.rules = rules
        self.language = language
    }
}
