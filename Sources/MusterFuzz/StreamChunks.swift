import MusterCore

/// Cuts a byte stream into the pieces a socket might deliver.
///
/// The cut points come from the input's own fingerprint, not the driver's generator, so `--replay`
/// splits a saved input exactly as the fuzz run did.
enum StreamChunks {
    static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        guard bytes.count > 1 else { return [bytes[...]] }
        var rng = SplitMix64(seed: Fingerprint(of: bytes).value)
        let cuts: Int
        switch rng.below(4) {
        case 0: cuts = 0  // everything at once
        case 1 where bytes.count <= 512: cuts = bytes.count - 1  // one byte at a time
        case 1: cuts = 64  // many small reads of a long stream
        default: cuts = 1 + rng.below(min(bytes.count - 1, 8))
        }
        if cuts == bytes.count - 1 { return bytes.indices.map { bytes[$0..<$0 + 1] } }
        let points = Set((0..<cuts).map { _ in 1 + rng.below(bytes.count - 1) }).sorted()
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        for point in points {
            chunks.append(bytes[start..<point])
            start = point
        }
        chunks.append(bytes[start...])
        return chunks
    }
}
