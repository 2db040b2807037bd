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

    /// CLOCK_MONOTONIC in nanoseconds, read directly: the clock of musterd's commit trace, shared by
    /// every network namespace of the lab.
    static func monotonic() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    static func seconds() -> Double { Double(monotonic()) / 1e9 }

    /// The CPU this process has used (all threads, user and system), in seconds: a figure that a
    /// busy machine stretches less than the wall clock, for comparing runs taken under load.
    static func processCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
