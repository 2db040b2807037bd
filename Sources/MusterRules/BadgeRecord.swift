public import MusterCore

/// One printed badge as materialized: who printed it, when and why. The kiosk name and location
/// come from the author's certificate on the roster, never from the payload.
public struct BadgeRecord: Sendable, Equatable {
    public let ref: DeltaRef
    public let hlc: HLC
    public let reason: BadgePayload.Reason
    public let kioskName: String
    public let location: String

    /// Memberwise, for the stores that build it from their rows.
    package init(ref: DeltaRef, hlc: HLC, reason: BadgePayload.Reason, kioskName: String, location: String) {
        self.ref = ref
        self.hlc = hlc
        self.reason = reason
        self.kioskName = kioskName
        self.location = location
    }
}
