import Synchronization

/// A clock that moves only when told to: for tests and for driving code in virtual time.
///
/// ``advance(by:)`` moves ``uptime`` and ``wallMillis`` together and resumes, in deadline order,
/// every sleeper whose deadline has been reached. A test that needs "the code under test is now
/// waiting" polls ``sleepers`` (or awaits ``waitForSleepers(_:)``) before advancing, instead of
/// sleeping in real time and hoping.
///
/// It is also a Swift `Clock`, for APIs that take `any Clock<Duration>`.
public final class ManualClock: TimeSource, Clock {
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Time since the clock's origin.
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var uptime: Duration
        var wallOrigin: UInt64
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        /// Sleepers cancelled before their continuation was registered.
        var cancelled: Set<UInt64> = []
    }

    private let state: Mutex<State>

    /// - Parameter wallMillis: the wall time at uptime zero (default: 2026-11-24T09:00:00Z).
    public init(uptime: Duration = .zero, wallMillis: UInt64 = 1_795_597_200_000) {
        state = Mutex(State(uptime: uptime, wallOrigin: wallMillis))
    }

    public var uptime: Duration { state.withLock { $0.uptime } }

    public var wallMillis: UInt64 {
        state.withLock { $0.wallOrigin + UInt64(max(0, Self.millis($0.uptime))) }
    }

    /// How many tasks are suspended in ``sleep(until:)`` right now.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline anyone is waiting for, if anyone is.
    public var nextDeadline: Duration? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Sets the wall clock (as an operator would), leaving uptime alone.
    public func setWall(millis: UInt64) {
        state.withLock { $0.wallOrigin = millis &- UInt64(max(0, Self.millis($0.uptime))) }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock cannot go back")
        let due: [Sleeper] = state.withLock { state in
            state.uptime += duration
            let now = state.uptime
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Advances to the earliest pending deadline, if there is one, and returns it.
    @discardableResult
    public func advanceToNextDeadline() -> Duration? {
        guard let next = nextDeadline else { return nil }
        advance(by: max(.zero, next - uptime))
        return next
    }

    /// Waits, in real time and for at most `patience`, until at least `count` tasks are sleeping on
    /// this clock. Returns whether they are.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, patience: Duration = .seconds(30)) async -> Bool {
        let limit = ContinuousClock.now + patience
        while sleepers < count {
            guard ContinuousClock.now < limit else { return false }
            await Task.yield()
            try? await ContinuousClock().sleep(for: .milliseconds(1))
        }
        return true
    }

    public func sleep(until deadline: Duration) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.uptime { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // A sleeper that finished normally leaves no trace in `cancelled`.
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    // MARK: Clock

    public var now: Instant { Instant(offset: uptime) }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await sleep(until: deadline.offset)
    }

    private static func millis(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
