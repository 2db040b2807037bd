/// Exponential backoff: `initial`, doubled after each further failure, never more than `maximum`.
///
/// One rule for every wait that grows with failures: the discovery client's reconnects, the kiosk
/// screen's and the daemon's brakes on guessed ticket codes. Used either as a sequence
/// (``next()`` after each failure, ``reset()`` after a success) or as a pure function of the count
/// (``delay(afterFailures:)``).
public struct Backoff: Sendable, Equatable {
    public let initial: Duration
    public let maximum: Duration
    /// Failures since the last reset.
    public private(set) var failures = 0

    public init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before the next attempt; each call doubles it up to `maximum`.
    public mutating func next() -> Duration {
        failures += 1
        return delay(afterFailures: failures)
    }

    /// After a success, the next failure starts again from `initial`.
    public mutating func reset() {
        failures = 0
    }

    /// The wait after `failures` failures in a row: none before the first, `initial` after it,
    /// doubled for each further one, never more than `maximum`.
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        var wait = initial
        // 32 doublings outgrow any maximum worth having, and keep a huge count from looping long.
        for _ in 0..<min(failures - 1, 32) where wait < maximum { wait = wait * 2 }
        return min(wait, maximum)
    }
}
