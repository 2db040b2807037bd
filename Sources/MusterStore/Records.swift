public import MusterCore

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

/// A campaign with its live counts.
public struct CampaignRecord: Sendable, Equatable {
    public let id: String
    public let name: String
    public let attendees: Int
    public let checkedIn: Int
}

/// One check-in, check-out or walk-in registration as materialized.
public struct PresenceRecord: Sendable, Equatable {
    public let ref: DeltaRef
    public let kind: DeltaKind
    public let hlc: HLC
    public let kioskName: String
    public let location: String
    public let memberStatus: String

    public var isArrival: Bool { kind != .checkOut }
}

/// One attendee of a campaign with their check-in state.
public struct AttendeeRecord: Sendable, Equatable {
    public let campaignID: String
    public let key: String
    public let email: String
    public let firstName: String
    public let lastName: String
    public let company: String
    public let ticket: String?
    public let walkInTickets: [String]
    public let salesforceID: String?
    public let status: String?
    public let admitted: Bool
    public let imported: Bool
    public let walkIn: Bool
    /// The check-in shown everywhere: the earliest by (hlc, author) that was not undone.
    public let firstArrival: PresenceRecord?
    /// The newest presence that was not undone.
    public let latest: PresenceRecord?

    public var isCheckedIn: Bool { firstArrival != nil }
    /// Inside while the newest presence is an arrival.
    public var isInside: Bool { latest?.isArrival ?? false }
    public var displayName: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }
}

/// One line of the check-in log export.
public struct PresenceLogEntry: Sendable, Equatable {
    public let presence: PresenceRecord
    public let campaignName: String
    public let attendee: AttendeeRecord?
    public let note: String?
}

/// Counts and identities for `muster status`.
public struct ReplicaStatus: Sendable, Equatable {
    public struct AuthorCount: Sendable, Equatable {
        public let author: AuthorID
        public let deltas: Int
        public let headSeq: UInt64
    }
    public let lock: LockState?
    public let attendees: Int
    public let checkedIn: Int
    public let walkIns: Int
    public let inside: Int
    public let authors: [AuthorCount]
    public let forks: Int
    public let clockWarnings: Int
    public let digest: String
}
