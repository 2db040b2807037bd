import MusterCore

/// The simulator's only source of randomness: SplitMix64 from the run's seed.
///
/// Each concern draws from its own stream (``fork(_:)``), so adding a draw to the network does not
/// shift every workload time after it: a seed keeps meaning the same venue, schedule and faults
/// while the code around them changes.
public struct SimRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { generator.next() }

    /// An independent stream for one concern, named by a constant.
    public func fork(_ stream: UInt64) -> SimRandom {
        var mixer = SplitMix64(seed: stream &* 0x9E37_79B9_7F4A_7C15)
        var copy = self
        return SimRandom(seed: copy.next() ^ mixer.next())
    }

    /// True with probability `p` (0 never draws, so a fault that is off does not consume randomness).
    public mutating func chance(_ p: Double) -> Bool {
        guard p > 0 else { return false }
        guard p < 1 else { return true }
        return Double(next() >> 11) / Double(1 << 53) < p
    }

    /// Uniform in `range` (nanoseconds, or any integer quantity).
    public mutating func int64(in range: ClosedRange<Int64>) -> Int64 {
        Int64.random(in: range, using: &self)
    }

    /// Uniform in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// `count` random bytes (for seeded keys and ids).
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            var word = next()
            for _ in 0..<8 where out.count < count {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return out
    }
}

/// The named streams of one run.
enum RandomStream: UInt64 {
    case venue = 1, workload, network, faults, replication, frames, byzantine
}
