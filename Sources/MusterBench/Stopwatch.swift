import Foundation

/// Monotonic wall-clock timing in seconds (CLOCK_MONOTONIC through `DispatchTime`).
enum Stopwatch {
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Runs `body` and returns its result and the elapsed seconds.
    static func time<T>(_ body: () throws -> T) rethrows -> (result: T, seconds: Double) {
        let start = now()
        let result = try body()
        return (result, Double(now() - start) / 1e9)
    }
}
