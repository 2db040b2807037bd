public import MusterCore

/// What a door does with one scan (see ``DoorPolicy``).
public enum DoorDecision: Sendable, Equatable {
    /// Let them in: append a check-in in `campaignID` with `memberStatus` that ends `ends` (their
    /// presence in other zones, when entering an exclusive zone).
    case admit(campaignID: String, memberStatus: String, ends: [DeltaRef])
    /// Keep them out, for `reason`; `message` is the sentence the attendee reads.
    case refuse(DoorReason, message: String)

    public var reason: DoorReason? {
        guard case .refuse(let reason, _) = self else { return nil }
        return reason
    }
}
