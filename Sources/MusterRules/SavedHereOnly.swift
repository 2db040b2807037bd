/// This kiosk's own check-ins that no other kiosk is yet known to hold (issue 37): what a dead disk
/// here would lose. A peer is known to hold them once its heads named this kiosk's chain at or past
/// them with the same hash (`Replica.recordHeldElsewhere`), which in session takes one anti-entropy
/// round (5 s) and the throttle of that record (2 s). Staff-only: counts and a time, no attendee.
public struct SavedHereOnly: Sendable, Equatable, Codable {
    /// Check-ins and walk-in registrations (arrivals and check-outs) past what a peer holds.
    public let checkIns: Int
    /// Every record of this kiosk's past what a peer holds (refused scans, notes and badges too).
    public let records: Int
    /// The stamp (Unix milliseconds) of the oldest of those check-ins; nil when there is none.
    public let oldestMillis: UInt64?

    public init(checkIns: Int, records: Int, oldestMillis: UInt64?) {
        self.checkIns = checkIns
        self.records = records
        self.oldestMillis = oldestMillis
    }

    /// The staff line, e.g. `3 check-in(s) since 10:42 not yet known to be held by another kiosk`.
    public func line(time: (UInt64) -> String) -> String {
        let since = oldestMillis.map { " since \(time($0))" } ?? ""
        return "\(checkIns) check-in(s)\(since) not yet known to be held by another kiosk (\(records) record(s) in all)"
    }
}
