public import MusterCore

/// One line of the door audit: a scan a kiosk answered, admitted or refused.
public struct AuditEntry: Sendable, Equatable {
    /// The delta that records it: a check-in or walk-in registration (admitted) or a scan (refused).
    public let ref: DeltaRef
    /// When it happened (Unix milliseconds): the delta's time, or the minute's start for
    /// aggregated not-found attempts.
    public let atMillis: Int64
    /// The kiosk's name and zone, from its certificate.
    public let kioskName: String
    public let zone: String
    public let campaignID: String
    /// Empty for not-found attempts.
    public let attendeeKey: String
    /// nil: admitted.
    public let reason: DoorReason?
    /// How many attempts the line stands for (more than 1 only for aggregated not-found ones).
    public let count: Int
    /// Whether an organizer undid the admission since (it was still answered, so it stays here).
    public let undone: Bool
    /// A session door's scan (issue 36): the session's id, and whether it was a leave.
    public package(set) var sessionID: String?
    public package(set) var leftSession = false

    /// Memberwise, for the stores that build it from their rows.
    package init(
        ref: DeltaRef,
        atMillis: Int64,
        kioskName: String,
        zone: String,
        campaignID: String,
        attendeeKey: String,
        reason: DoorReason?,
        count: Int,
        undone: Bool
    ) {
        self.ref = ref
        self.atMillis = atMillis
        self.kioskName = kioskName
        self.zone = zone
        self.campaignID = campaignID
        self.attendeeKey = attendeeKey
        self.reason = reason
        self.count = count
        self.undone = undone
    }
}
