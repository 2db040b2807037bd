public import MusterCore

/// One check-in, check-out or walk-in registration as materialized.
public struct PresenceRecord: Sendable, Equatable {
    public let ref: DeltaRef
    public let kind: DeltaKind
    public let hlc: HLC
    public let kioskName: String
    public let location: String
    public let memberStatus: String
    /// The BLAKE2b-256 of the delta's envelope, which an undo names along with ``ref``.
    public var hash: [UInt8]? = nil

    public var isArrival: Bool { kind != .checkOut }

    /// Memberwise, for the stores that build it from their rows.
    package init(
        ref: DeltaRef,
        kind: DeltaKind,
        hlc: HLC,
        kioskName: String,
        location: String,
        memberStatus: String,
        hash: [UInt8]? = nil
    ) {
        self.ref = ref
        self.kind = kind
        self.hlc = hlc
        self.kioskName = kioskName
        self.location = location
        self.memberStatus = memberStatus
        self.hash = hash
    }
}
