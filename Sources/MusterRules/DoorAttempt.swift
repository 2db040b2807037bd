import MusterCore

/// One scan at one door, with everything the replica knows that bears on it: the input of
/// ``DoorPolicy/decide(_:)``, gathered by the daemon inside the write transaction that records the
/// answer, so the decision and its record see the same state.
public struct DoorAttempt: Sendable, Equatable {
    /// The attendee as the replica knows them.
    public struct Attendee: Sendable, Equatable {
        public var key: String
        public var admitted: Bool
        /// Every live arrival (check-in or walk-in registration), open or ended, oldest first.
        public var arrivals: [PresenceRecord]
        /// The arrivals no check-out (or exclusive entry) has ended.
        public var openArrivals: [PresenceRecord]
        /// The list's type, validity and attention flag (nil: the list said none of it).
        public var details: AttendeeDetails?

        public init(
            key: String,
            admitted: Bool,
            arrivals: [PresenceRecord],
            openArrivals: [PresenceRecord],
            details: AttendeeDetails? = nil
        ) {
            self.key = key
            self.admitted = admitted
            self.arrivals = arrivals
            self.openArrivals = openArrivals
            self.details = details
        }
    }

    /// The newest lock; nil when the kiosk was never locked.
    public var lock: LockState?
    /// The zone of the door: the kiosk's location.
    public var zone: String
    /// nil: no attendee matches what was scanned.
    public var attendee: Attendee?
    /// Attendees inside `zone` now, on this replica.
    public var insideZone: Int
    /// For escrow zones: attendees inside `zone` whose arrival this kiosk wrote, how many doors the
    /// capacity is split over (the lock's ``ZoneRule/doors``), and this kiosk's rank among them (by
    /// key), which decides who holds the remainder places.
    public var escrow: Escrow?

    public struct Escrow: Sendable, Equatable {
        public var ownInside: Int
        public var kiosks: Int
        /// nil: the lock lists the zone's doors and this kiosk is not among them, so it has no share.
        public var rank: Int?

        public init(ownInside: Int, kiosks: Int, rank: Int?) {
            self.ownInside = ownInside
            self.kiosks = kiosks
            self.rank = rank
        }

        /// This kiosk's share of `capacity`: an equal split, the remainder to the lowest ranks, so
        /// the shares of all the zone's kiosks add up to exactly the capacity; none for a door the
        /// lock does not name.
        public func share(of capacity: Int) -> Int {
            guard let rank else { return 0 }
            let kiosks = max(1, self.kiosks)
            return capacity / kiosks + (rank < capacity % kiosks ? 1 : 0)
        }
    }
    /// When the scan happened (Unix milliseconds) and when that local day began, for per-day limits.
    public var nowMillis: UInt64
    public var dayStartMillis: Int64
    /// The replacement that made the scanned code a dead one (``BadgeCodes``), if it is.
    public var replacedBy: CodeReplacement?
    /// A member of staff has seen the attendee (`muster checkin --confirm`): an attention ticket
    /// (``AttendeeDetails/attention``) is admitted only so.
    public var staffConfirmed = false

    public init(
        lock: LockState?,
        zone: String,
        attendee: Attendee?,
        insideZone: Int,
        nowMillis: UInt64,
        dayStartMillis: Int64,
        escrow: Escrow? = nil,
        replacedBy: CodeReplacement? = nil
    ) {
        self.lock = lock
        self.zone = zone
        self.attendee = attendee
        self.insideZone = insideZone
        self.nowMillis = nowMillis
        self.dayStartMillis = dayStartMillis
        self.escrow = escrow
        self.replacedBy = replacedBy
    }
}
