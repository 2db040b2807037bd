/// The hybrid logical clock state machine. Pure: the caller passes the physical time in, so tests
/// (and the fault campaign) can inject any clock.
///
/// A kiosk has no NTP at a venue. A remote timestamp further ahead of local time than
/// ``maxAhead`` is *not* allowed to drag the local clock forward: the delta is still stored and
/// counted, and the caller is told to raise a clock warning.
public struct HybridClock: Sendable {
    public enum Observation: Sendable, Equatable {
        /// The remote time was merged into the local clock.
        case merged
        /// The remote time is too far ahead and was ignored; the delta itself is still valid.
        case tooFarAhead(byMillis: UInt64)
    }

    public private(set) var last: HLC
    public let maxAheadMillis: UInt64

    public init(last: HLC = .zero, maxAheadMillis: UInt64 = 5 * 60 * 1000) {
        self.last = last
        self.maxAheadMillis = maxAheadMillis
    }

    /// A timestamp for a local event, strictly greater than every timestamp issued or merged before.
    public mutating func tick(nowMillis: UInt64) -> HLC {
        let next: HLC
        if nowMillis > last.physicalMillis {
            next = HLC(physicalMillis: nowMillis, logical: 0)
        } else if last.logical == UInt16.max {
            next = HLC(physicalMillis: last.physicalMillis + 1, logical: 0)
        } else {
            next = HLC(physicalMillis: last.physicalMillis, logical: last.logical + 1)
        }
        last = next
        return next
    }

    /// Merges a timestamp seen on a delta from elsewhere.
    @discardableResult
    public mutating func observe(_ remote: HLC, nowMillis: UInt64) -> Observation {
        if remote.physicalMillis > nowMillis, remote.physicalMillis - nowMillis > maxAheadMillis {
            return .tooFarAhead(byMillis: remote.physicalMillis - nowMillis)
        }
        if remote > last { last = remote }
        return .merged
    }
}
