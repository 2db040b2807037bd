/// The fuzzer's only source of randomness: SplitMix64 (Steele, Lea and Flood, 2014).
///
/// Deterministic from `--seed`, so a run that found something can be repeated exactly with
/// `--runs`; `SystemRandomNumberGenerator` could not be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound` (0 when `bound` is 0 or less, so callers need no special case for empty inputs).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        return Int(next() % UInt64(bound))
    }

    /// True with probability `1 / n`.
    mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}
