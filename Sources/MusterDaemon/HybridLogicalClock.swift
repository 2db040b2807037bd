public import MusterCore
public import MusterTime
import Synchronization

/// The daemon's hybrid logical clock: physical time (injectable, for tests and the fault lab) feeding a
/// ``HybridClock`` shared, under a lock, by every writer in the daemon.
public final class HybridLogicalClock: Sendable {
    private let physical: @Sendable () -> UInt64
    private let hybrid: Mutex<HybridClock>

    /// - Parameters:
    ///   - time: where wall time comes from (the system's clock unless a test injects one).
    ///   - offsetMillis: added to that time (the lab injects clock skew this way).
    public init(time: any TimeSource = SystemTime(), offsetMillis: Int64 = 0, boundMillis: UInt64 = 300_000) {
        physical = { UInt64(max(0, Int64(clamping: time.wallMillis) + offsetMillis)) }
        hybrid = Mutex(HybridClock(maxAheadMillis: boundMillis))
    }

    public init(physical: @escaping @Sendable () -> UInt64, boundMillis: UInt64 = 300_000) {
        self.physical = physical
        hybrid = Mutex(HybridClock(maxAheadMillis: boundMillis))
    }

    public var nowMillis: UInt64 { physical() }
    public var boundMillis: UInt64 { hybrid.withLock { $0.maxAheadMillis } }

    public func tick() -> HLC {
        let now = physical()
        return hybrid.withLock { $0.tick(nowMillis: now) }
    }

    /// A timestamp for a local event that must also sort after `floor` (the record it supersedes).
    /// When `floor` is ahead of the local clock (a peer beyond the clock bound), only this one
    /// timestamp goes past it; the clock itself does not jump forward.
    public func tick(after floor: HLC?) -> HLC {
        let stamp = tick()
        guard let floor, stamp <= floor else { return stamp }
        return floor.logical == UInt16.max
            ? HLC(physicalMillis: floor.physicalMillis + 1, logical: 0)
            : HLC(physicalMillis: floor.physicalMillis, logical: floor.logical + 1)
    }

    @discardableResult
    public func observe(_ remote: HLC) -> HybridClock.Observation {
        let now = physical()
        return hybrid.withLock { $0.observe(remote, nowMillis: now) }
    }
}
