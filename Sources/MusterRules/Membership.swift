public import MusterCore

/// Where a key stands on the venue roster, as this replica knows it.
public enum Membership: Sendable, Equatable {
    /// The venue's organizer key.
    case organizer
    /// An enrolled kiosk, with the name and location the organizer gave it.
    case enrolled(name: String, location: String)
    /// One of the organizer's devices (``EnrollRole/organizerDevice``): it signs organizer deltas on
    /// its own chain and never holds a session.
    case device(name: String)
    /// A kiosk or device the organizer revoked; `evidence` is the signed revocation, shown to the kiosk itself.
    case revoked(watermark: UInt64, evidence: SignedDelta)
    /// Never enrolled (as far as this replica knows).
    case unknown

    /// Whether sessions with this key are allowed.
    public var mayConnect: Bool {
        switch self {
        case .organizer, .enrolled: true
        case .device, .revoked, .unknown: false
        }
    }
}
