/// A check-in (see ``PresencePayload``).
///
/// Entering an exclusive zone (``ZoneRule/exclusive``) ends the attendee's presence in the other
/// zones: the check-in names those arrivals in `ends`, as a check-out does, so the move follows
/// what the kiosk had seen, not the kiosks' clocks. nil (and encoded as nothing, so every older
/// check-in decodes alike) when it ends nothing.
public struct CheckInPayload: PresenceChange {
    public static let kind = DeltaKind.checkIn
    public var presence: PresencePayload
    public var ends: [DeltaRef]?

    public init(_ presence: PresencePayload, ends: [DeltaRef]? = nil) {
        self.presence = presence
        self.ends = ends
    }
}
