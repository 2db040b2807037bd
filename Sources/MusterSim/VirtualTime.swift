/// Virtual time in the simulator: nanoseconds since the simulation started.
///
/// Kept as a plain `Int64` inside the scheduler (comparing and adding `Duration`s is far slower, and
/// the queue does little else); converted to `Duration` wherever it meets the sync core or a person.
public typealias VirtualTime = Int64

extension Duration {
    /// Whole nanoseconds (virtual time's unit), rounded down.
    public var nanoseconds: Int64 {
        let parts = components
        return parts.seconds &* 1_000_000_000 &+ parts.attoseconds / 1_000_000_000
    }

    /// A virtual instant as the `Duration` since the start.
    public static func virtual(_ time: VirtualTime) -> Duration { .nanoseconds(time) }
}

extension VirtualTime {
    static let microsecond: VirtualTime = 1_000
    static let millisecond: VirtualTime = 1_000_000
    static let second: VirtualTime = 1_000_000_000

    /// Milliseconds with three decimals, for summaries.
    var millisText: String {
        let micros = self / 1_000
        let whole = micros / 1_000
        let fraction = micros % 1_000
        let padded = String(fraction).count < 3 ? String(repeating: "0", count: 3 - String(fraction).count) : ""
        return "\(whole).\(padded)\(fraction)"
    }
}
