/// A hybrid logical clock timestamp (Kulkarni et al., 2014): wall-clock milliseconds plus a logical
/// counter that orders events within the same millisecond or when a clock runs behind.
///
/// Packed into one `UInt64` (47 bits of milliseconds and 16 bits of
/// counter) so it sorts as an integer in SQLite. Timestamps order display and last-writer-wins
/// fields only; they never decide whether a check-in exists.
public struct HLC: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let physicalMillis: UInt64
    public let logical: UInt16

    public static let zero = HLC(physicalMillis: 0, logical: 0)
    /// 47 bits keep the packed value a positive SQLite INTEGER (good until the year 6429).
    public static let maxPhysicalMillis: UInt64 = (1 << 47) - 1

    public init(physicalMillis: UInt64, logical: UInt16) {
        self.physicalMillis = min(physicalMillis, Self.maxPhysicalMillis)
        self.logical = logical
    }

    public init(packed: UInt64) {
        self.init(physicalMillis: packed >> 16, logical: UInt16(truncatingIfNeeded: packed))
    }

    public var packed: UInt64 { physicalMillis << 16 | UInt64(logical) }

    /// Seconds since 1970 for display.
    public var unixSeconds: Double { Double(physicalMillis) / 1000 }

    public static func < (lhs: HLC, rhs: HLC) -> Bool { lhs.packed < rhs.packed }

    public var description: String { "\(physicalMillis).\(logical)" }
}
