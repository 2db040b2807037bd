import MusterTime

/// When a dial loop tries an address again, and when it gives up: exponential backoff from 250 ms
/// to 5 s, reset by a session that was established; after ``maxFailures`` attempts in a row that
/// established nothing (nil: never, for configured static peers), or once asked to stop, the loop
/// ends. A pure state machine; `SyncService`'s dial loop carries out its actions.
public struct DialSchedule: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// A session was established on this attempt (and has ended since).
        case established
        /// The connection, the handshake or the admission failed.
        case failed
        /// The address already has a session with a connected peer (nothing was dialed).
        case alreadyConnected
        /// The address's kiosk is known and the sync core does not want a session with it now
        /// (beyond the full mesh, only the peers it asks for; nothing was dialed).
        case notWanted
    }

    public enum Action: Sendable, Equatable {
        /// Wait this long, then dial again.
        case retry(after: Duration)
        /// End the loop.
        case end(DialEnd)
    }

    public static let initialBackoff: Duration = .milliseconds(250)
    public static let maxBackoff: Duration = .seconds(5)
    /// How often an address that has a session, or is not wanted, is looked at again. A safety net:
    /// the loop is woken at once when its session ends or the sync core asks for one
    /// (`DialRegistry.wake`).
    public static let connectedRecheck: Duration = .seconds(5)

    public let maxFailures: Int?
    public private(set) var failures = 0
    /// The wait after each failed attempt (the shared ``Backoff``), reset by an established session.
    private var delays = Backoff(initial: DialSchedule.initialBackoff, maximum: DialSchedule.maxBackoff)
    /// The wait after the next failure.
    public var backoff: Duration { delays.delay(afterFailures: delays.failures + 1) }
    public private(set) var stopRequested = false

    public init(maxFailures: Int?) {
        precondition(maxFailures.map { $0 > 0 } ?? true, "maxFailures must be positive")
        self.maxFailures = maxFailures
    }

    /// Whether to dial now (false once stopping).
    public var shouldDial: Bool { !stopRequested }

    /// The service that named this address is gone: the loop ends before its next dial (a session
    /// in progress runs to its end).
    public mutating func stop() { stopRequested = true }

    /// It is wanted again (announced again before the loop ended).
    public mutating func resume() {
        stopRequested = false
        failures = 0
    }

    /// An attempt ended: what next.
    public mutating func attempted(_ outcome: Outcome) -> Action {
        switch outcome {
        case .established:
            failures = 0
            delays.reset()
        case .alreadyConnected, .notWanted:
            failures = 0
            if stopRequested { return .end(.stopped) }
            return .retry(after: Self.connectedRecheck)
        case .failed:
            failures += 1
        }
        if stopRequested { return .end(.stopped) }
        if let maxFailures, failures >= maxFailures { return .end(.gaveUp(failures: failures)) }
        return .retry(after: delays.next())
    }
}

/// Why a dial loop ended.
public enum DialEnd: Sendable, Equatable {
    /// Asked to stop (its service disappeared).
    case stopped
    /// This many attempts in a row established nothing.
    case gaveUp(failures: Int)
    /// The daemon is shutting down.
    case shutdown
}
