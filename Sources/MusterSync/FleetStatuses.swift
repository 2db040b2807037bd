public import MusterCore
public import MusterRules

/// The newest status of each kiosk (``KioskStatus``) this kiosk heard, and which peers read status
/// messages: a kiosk of 0.6.3 or earlier closes a session on a message it does not know, so statuses
/// go only to a peer that showed it is 0.6.5 or later (its acknowledgement, or a status of its own).
public struct FleetStatuses: Sendable {
    public private(set) var statuses: [AuthorID: (status: KioskStatus, signed: SignedKioskStatus)] = [:]
    private(set) var readers: Set<AuthorID> = []

    /// Statuses kept at most: more kiosks than a venue has are junk a peer made up.
    public static let maxKiosks = 1_000

    public init() {}

    /// `status`, verified: kept if it is newer than the one held. Returns whether it was.
    public mutating func take(_ status: KioskStatus, signed: SignedKioskStatus) -> Bool {
        if let held = statuses[status.kiosk], held.status.signedMillis >= status.signedMillis { return false }
        guard statuses[status.kiosk] != nil || statuses.count < Self.maxKiosks else { return false }
        statuses[status.kiosk] = (status, signed)
        return true
    }

    /// `peer` showed it reads statuses: true the first time (it is sent every status held then).
    public mutating func reads(_ peer: AuthorID) -> Bool {
        readers.insert(peer).inserted
    }

    /// The peer's session ended: the next one shows again what it reads (it may have been downgraded).
    public mutating func ended(_ peer: AuthorID) {
        readers.remove(peer)
    }

    public var signed: [SignedKioskStatus] { statuses.values.map(\.signed) }
}
