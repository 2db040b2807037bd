/// A check-out (see ``PresencePayload``). It names the arrivals it ends, so whether someone is
/// "inside" follows causality (which check-ins the kiosk had seen), not the authors' clocks: a
/// check-in stamped far in the future cannot outlast the check-out that names it.
///
/// `ends` is nil only in check-outs written before it existed (encoded without it); those end every
/// arrival of the same attendee that sorts before them by (hlc, author, seq).
public struct CheckOutPayload: PresenceChange {
    public static let kind = DeltaKind.checkOut
    /// Most arrivals one check-out can end (concurrent check-ins at several kiosks).
    public static let maxEnds = 16
    public var presence: PresencePayload
    public var ends: [DeltaRef]?

    public init(_ presence: PresencePayload, ends: [DeltaRef]? = nil) {
        self.presence = presence
        self.ends = ends
    }
}
