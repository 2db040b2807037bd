/// Where every part of Muster gets "now" and every sleep: one injected input, so that timeouts,
/// heartbeats, the kiosk screen's idle reset and the simulator can all run in virtual time.
///
/// Two readings, because they answer different questions:
/// - ``uptime`` is monotonic. Timers, deadlines and liveness use it; it never jumps when an
///   operator sets the wall clock at the door.
/// - ``wallMillis`` is the wall clock (milliseconds since the Unix epoch). It feeds the hybrid
///   logical clock and what a person reads ("checked in at 09:14"); it may jump.
///
/// Production code takes `any TimeSource` and defaults to ``SystemTime``; tests pass a
/// ``ManualClock`` and move it with ``ManualClock/advance(by:)``.
public protocol TimeSource: Sendable {
    /// Monotonic time since an arbitrary origin fixed for the life of the source.
    var uptime: Duration { get }
    /// Wall-clock time in milliseconds since 1970-01-01T00:00:00Z.
    var wallMillis: UInt64 { get }
    /// Suspends until ``uptime`` has reached `deadline`. Throws `CancellationError` when the task is
    /// cancelled first.
    func sleep(until deadline: Duration) async throws
}

extension TimeSource {
    /// Suspends for `duration` of this source's time.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: uptime + duration)
    }

    /// `uptime` after `duration`: a deadline for ``sleep(until:)``.
    public func deadline(after duration: Duration) -> Duration { uptime + duration }
}
