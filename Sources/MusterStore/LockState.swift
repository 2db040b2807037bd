/// The organizer's current campaign lock as materialized.
public struct LockState: Sendable, Equatable {
    public let version: UInt64
    /// nil when the kiosks are unlocked (waiting for the organizer).
    public let campaignID: String?
    public let campaignName: String?
    public let checkInStatus: String
    public let opensAtMillis: Int64?
    public let closesAtMillis: Int64?
}
