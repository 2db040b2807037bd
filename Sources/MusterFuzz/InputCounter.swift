import Foundation

/// Counts distinct inputs in fixed memory: a 2^26-bit bitmap of input fingerprints and the
/// linear-counting estimate (Whang et al., 1990) of how many distinct fingerprints set its bits.
///
/// A `Set` of every input would grow with the run; this stays at 8 MiB however long the fuzzer runs,
/// and is within about 1 % for the tens of millions of executions a CI run makes.
struct InputCounter {
    private static let bitCount = 1 << 26
    private var words: [UInt64]
    private var setBits = 0

    init() {
        words = [UInt64](repeating: 0, count: Self.bitCount / 64)
    }

    mutating func insert(_ fingerprint: UInt64) {
        let bit = Int(truncatingIfNeeded: fingerprint >> 38)  // top 26 bits
        let mask: UInt64 = 1 << UInt64(bit & 63)
        if words[bit >> 6] & mask == 0 {
            words[bit >> 6] |= mask
            setBits += 1
        }
    }

    /// Estimated number of distinct inputs inserted so far.
    var estimate: Int {
        let zeros = Self.bitCount - setBits
        guard zeros > 0 else { return Self.bitCount * 16 }  // saturated; never reached in practice
        // Exact for small counts: with few bits set, collisions are negligible.
        if setBits < 1 << 16 { return setBits }
        return Int((Double(Self.bitCount) * log(Double(Self.bitCount) / Double(zeros))).rounded())
    }

    /// Clears the bitmap for the next target without giving the memory back.
    mutating func reset() {
        for index in words.indices { words[index] = 0 }
        setBits = 0
    }
}
