#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The machine's own clocks: `CLOCK_REALTIME` for wall time and Swift's `ContinuousClock` (which
/// keeps counting through suspend, as a kiosk's deadlines should) for uptime and sleeps.
///
/// This is the only place in Muster that reads the system's wall clock.
public struct SystemTime: TimeSource {
    private static let origin = ContinuousClock.now

    public init() {}

    public var uptime: Duration { ContinuousClock.now - Self.origin }

    public var wallMillis: UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        // A clock set before 1970 reads as 1970: callers compare and subtract these values.
        guard spec.tv_sec >= 0 else { return 0 }
        return UInt64(spec.tv_sec) * 1000 + UInt64(spec.tv_nsec) / 1_000_000
    }

    public func sleep(until deadline: Duration) async throws {
        try await ContinuousClock().sleep(until: Self.origin + deadline, tolerance: nil)
    }
}

extension TimeSource where Self == SystemTime {
    /// The machine's clocks: `time: .system`.
    public static var system: SystemTime { SystemTime() }
}
