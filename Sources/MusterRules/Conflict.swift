public import MusterCore

/// One once-only thing admitted at two doors that had not heard each other (issue 37): what a
/// partition let through twice. With every door in session, each of these is refused at the door,
/// so each one in the replica was admitted by a door that did not yet hold the other admission.
///
/// Every replica that holds the same deltas finds the same conflicts: ``Conflicts/find(presences:badges:rules:)``
/// is a function of the replicated state only.
public struct Conflict: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        /// A second entry into a zone under `--entries once` (or `--no-re-entry`).
        case enteredTwice = "entered_twice"
        /// Checked in while already inside the same zone (the venue, without door rules).
        case insideTwice = "inside_twice"
        /// An entry into a zone beyond `--entries N` on the same local day.
        case entriesExceeded = "entries_exceeded"
        /// Admitted into a zone already at its capacity, where escrow was off.
        case overCapacity = "over_capacity"
        /// A second self-service badge: the reprint guard allows one per attendee venue-wide.
        case badgeTwice = "badge_twice"
        /// An add-on handed out twice (issue 35): once per attendee and add-on venue-wide.
        case redeemedTwice = "redeemed_twice"
    }

    /// One admission a conflict is made of: which delta, at which door, when.
    public struct Admission: Sendable, Equatable {
        public let ref: DeltaRef
        public let kioskName: String
        public let location: String
        public let atMillis: UInt64

        public init(ref: DeltaRef, kioskName: String, location: String, atMillis: UInt64) {
            self.ref = ref
            self.kioskName = kioskName
            self.location = location
            self.atMillis = atMillis
        }
    }

    public let kind: Kind
    public let attendeeKey: String
    /// The zone (a kiosk location); empty for the venue as one zone, for badges and for add-ons.
    public let zone: String
    /// What stood first (nil for capacity: the places were taken by several) and the admission a
    /// door that had heard it would have refused.
    public let first: Admission?
    public let second: Admission
    /// For capacity: how many were inside with this admission, and the capacity.
    public let inside: Int?
    public let capacity: Int?
    /// For `redeemed_twice`: the add-on handed out twice.
    public var addon: String? = nil
}

extension Conflict {
    init(_ kind: Kind, _ key: String, _ zone: String, first: some KioskWrite, second: some KioskWrite) {
        self.init(
            kind: kind,
            attendeeKey: key,
            zone: zone,
            first: Admission(first),
            second: Admission(second),
            inside: nil,
            capacity: nil
        )
    }
}
