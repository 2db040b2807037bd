public import MusterCore

/// One kiosk on the roster, for status output and key rotation.
public struct RosterEntry: Sendable, Equatable {
    public let kiosk: AuthorID
    public let name: String
    public let location: String
    /// Set once the kiosk is revoked: the last seq of its that is still accepted.
    public let revokedWatermark: UInt64?
    /// A kiosk, or one of the organizer's devices.
    public var role: EnrollRole = .kiosk

    /// Memberwise, for the stores that build it from their rows.
    package init(kiosk: AuthorID, name: String, location: String, revokedWatermark: UInt64?, role: EnrollRole = .kiosk)
    {
        self.kiosk = kiosk
        self.name = name
        self.location = location
        self.revokedWatermark = revokedWatermark
        self.role = role
    }
}
