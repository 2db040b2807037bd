import MusterCore

/// The fuzzer's only source of randomness: MusterCore's SplitMix64, with the draws the mutator uses.
///
/// Deterministic from `--seed`, so a run that found something can be repeated exactly with
/// `--runs`; `SystemRandomNumberGenerator` could not be replayed.
extension SplitMix64 {
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
