public import MusterCore
@_exported public import MusterTime

/// The fixed times of the tests; the kit also re-exports `MusterTime`, whose `ManualClock` is the
/// tests' manual clock (it moves only when a test advances it).
public enum TestTime {
    /// 2025-06-15, the day of the test event.
    public static let start: UInt64 = 1_750_000_000_000
    /// The replica's clock bound (five minutes ahead).
    public static let clockBound: UInt64 = 5 * 60 * 1_000
    public static let tenYears: UInt64 = 10 * 365 * 24 * 3_600 * 1_000

    /// `offset` milliseconds into the test day, as a stamp.
    public static func at(_ offset: UInt64) -> HLC { HLC(physicalMillis: start + offset, logical: 0) }
}
