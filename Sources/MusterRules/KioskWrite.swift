public import MusterCore

/// A write a kiosk made at its door, as materialized: the delta, its stamp, and the door (the
/// author's certificate's name and location). What ``Conflicts`` orders and reports, for check-ins
/// and printed badges alike.
public protocol KioskWrite: Sendable, Equatable {
    var ref: DeltaRef { get }
    var hlc: HLC { get }
    var kioskName: String { get }
    var location: String { get }
}

extension PresenceRecord: KioskWrite {}

extension BadgeRecord: KioskWrite {}
