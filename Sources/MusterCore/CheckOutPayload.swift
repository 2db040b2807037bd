/// A check-out (see ``PresencePayload``). It names the arrivals it ends, so whether someone is
/// "inside" follows causality (which check-ins the kiosk had seen), not the authors' clocks: a
/// check-in stamped far in the future cannot outlast the check-out that names it.
///
/// Each reference in `ends` also ends its author's earlier arrivals of the same attendee (every
/// replica holding it holds those, a chain having no gaps), so a check-out names one arrival per
/// author: a kiosk that floods check-ins of one person cannot outnumber ``maxEnds``.
///
/// `ends` is nil only in check-outs written before it existed (encoded without it); those end every
/// arrival of the same attendee that sorts before them by (hlc, author, seq).
public struct CheckOutPayload: PresenceChange {
    public static let kind = DeltaKind.checkOut
    /// Most references one check-out carries: one per author with an open arrival of the person.
    public static let maxEnds = 16
    public var presence: PresencePayload
    public var ends: [DeltaRef]?

    public init(_ presence: PresencePayload, ends: [DeltaRef]? = nil) {
        self.presence = presence
        self.ends = ends
    }
}
