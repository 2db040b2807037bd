public import MusterCore
public import MusterRules

/// What happened in a run, as the checker needs it: every delta any kiosk wrote, the check-ins
/// acknowledged to attendees, and what every kiosk holds at the end.
public struct History: Sendable {
    /// What one kiosk holds at the end of the run.
    public struct Kiosk: Sendable {
        public var name: String
        /// Up at the end (a kiosk that is down is not expected to hold anything new).
        public var live: Bool
        public var deltas: [SignedDelta]
        public var digest: String
        /// The network key it would dial with at the end: its generation and a hash of the key
        /// (empty when not recorded).
        public var networkKey: String

        public init(name: String, live: Bool, deltas: [SignedDelta], digest: String, networkKey: String = "") {
            self.name = name
            self.live = live
            self.deltas = deltas
            self.digest = digest
            self.networkKey = networkKey
        }
    }

    /// Every delta a kiosk committed, acknowledged or not (a crash can come between the two).
    public var written: [DeltaRef: SignedDelta]
    /// The check-ins whose kiosk told the attendee "checked in".
    public var acknowledged: [DeltaRef]
    public var kiosks: [Kiosk]
    /// The lies of a Byzantine run (nil: every kiosk was honest).
    public var byzantine: ByzantineHistory?
    /// What the organizer's revocation of a kiosk set aside (its deltas past the watermark): held by
    /// no live kiosk at the end, and no loss of an acknowledged check-in (the organizer's own act).
    public var setAside: Set<DeltaRef> = []
    /// The kiosk the organizer revoked: stopped, its replica its own.
    public var revoked: String?
    /// Doors runs (``SimOptions/doors``): every admission written, by attendee key; the admissions a
    /// door made although it held an earlier one; and each live kiosk's conflicts report at the end.
    public var doors: Doors?

    public struct Doors: Sendable {
        public var admissions: [String: [DeltaRef]]
        public var admittedAfterHearing: Int
        public var conflicts: [String: [Conflict]]

        public init(admissions: [String: [DeltaRef]], admittedAfterHearing: Int, conflicts: [String: [Conflict]]) {
            self.admissions = admissions
            self.admittedAfterHearing = admittedAfterHearing
            self.conflicts = conflicts
        }
    }

    public init(
        written: [DeltaRef: SignedDelta],
        acknowledged: [DeltaRef],
        kiosks: [Kiosk],
        byzantine: ByzantineHistory? = nil
    ) {
        self.written = written
        self.acknowledged = acknowledged
        self.kiosks = kiosks
        self.byzantine = byzantine
    }
}
