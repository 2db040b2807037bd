import MusterCore

/// Makes new inputs from corpus entries: a stack of one to eight small edits ("havoc"), each picked
/// at random from the kinds of damage a hostile peer or a broken exporter actually does.
///
/// Without coverage feedback the edits are biased towards structure instead: lengths that lie,
/// tokens the parser splits on, slices repeated until a limit is crossed.
struct Mutator {
    enum Edit: CaseIterable {
        case flipBits, interestingByte, randomByte, arithmetic, insertBytes, insertToken, overwriteToken
        case deleteRange, duplicateSlice, splice, crossover, truncate, lengthField, swapBytes
    }

    /// Values that sit on boundaries of byte-wise parsers: sign bits, all ones, ASCII structure.
    static let interestingBytes: [UInt8] = [
        0x00, 0xFF, 0x7F, 0x80, 0x01, 0x0A, 0x0D, 0x20, 0x22, 0x2C, 0x3B, 0xC0, 0xEF,
    ]
    /// Lengths around the product's limits: the 8 MiB frame, 16 KiB bodies, 4 KiB fields, 64-byte ids.
    static let interestingLengths: [UInt64] = [
        0, 1, 2, 4, 16, 32, 63, 64, 65, 127, 128, 255, 256, 1_000, 1_001, 4_096, 4_097, 16_384, 16_385,
        65_535, 65_536, 8_388_607, 8_388_608, 8_388_609, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF,
        1 << 32, 1 << 47, 1 << 63, UInt64.max,
    ]

    let maxLength: Int
    let dictionary: [[UInt8]]

    func mutate(_ base: [UInt8], other: [UInt8], rng: inout SplitMix64) -> [UInt8] {
        var bytes = base
        let edits = 1 << rng.below(4)  // 1, 2, 4 or 8
        for _ in 0..<edits {
            apply(rng.pick(Edit.allCases), to: &bytes, other: other, rng: &rng)
        }
        if bytes.count > maxLength { bytes.removeLast(bytes.count - maxLength) }
        return bytes
    }

    private func apply(_ edit: Edit, to bytes: inout [UInt8], other: [UInt8], rng: inout SplitMix64) {
        switch edit {
        case .flipBits:
            guard !bytes.isEmpty else { return insertRandom(&bytes, rng: &rng) }
            for _ in 0...rng.below(3) {
                bytes[rng.below(bytes.count)] ^= 1 << UInt8(rng.below(8))
            }
        case .interestingByte:
            guard !bytes.isEmpty else { return bytes.append(rng.pick(Self.interestingBytes)) }
            bytes[rng.below(bytes.count)] = rng.pick(Self.interestingBytes)
        case .randomByte:
            guard !bytes.isEmpty else { return insertRandom(&bytes, rng: &rng) }
            bytes[rng.below(bytes.count)] = rng.byte()
        case .arithmetic:
            guard !bytes.isEmpty else { return }
            let index = rng.below(bytes.count)
            let delta = UInt8(1 + rng.below(35))
            bytes[index] = rng.oneIn(2) ? bytes[index] &+ delta : bytes[index] &- delta
        case .insertBytes:
            insertRandom(&bytes, rng: &rng)
        case .insertToken:
            guard !dictionary.isEmpty else { return insertRandom(&bytes, rng: &rng) }
            bytes.insert(contentsOf: rng.pick(dictionary), at: rng.below(bytes.count + 1))
        case .overwriteToken:
            guard !dictionary.isEmpty, !bytes.isEmpty else { return }
            let token = rng.pick(dictionary)
            let start = rng.below(bytes.count)
            let end = min(bytes.count, start + token.count)
            bytes.replaceSubrange(start..<end, with: token)
        case .deleteRange:
            guard !bytes.isEmpty else { return }
            let start = rng.below(bytes.count)
            let length = 1 + rng.below(rng.oneIn(4) ? bytes.count - start : min(16, bytes.count - start))
            bytes.removeSubrange(start..<start + length)
        case .duplicateSlice:
            guard !bytes.isEmpty else { return }
            let start = rng.below(bytes.count)
            let length = 1 + rng.below(min(bytes.count - start, 256))
            let slice = Array(bytes[start..<start + length])
            let repeats = rng.oneIn(8) ? 1 + rng.below(64) : 1
            let at = rng.below(bytes.count + 1)
            var block: [UInt8] = []
            block.reserveCapacity(min(slice.count * repeats, maxLength))
            for _ in 0..<repeats where block.count < maxLength { block += slice }
            bytes.insert(contentsOf: block, at: at)
        case .splice:
            guard !other.isEmpty else { return }
            let cut = rng.below(bytes.count + 1)
            let from = rng.below(other.count)
            bytes = Array(bytes[..<cut]) + other[from...]
        case .crossover:
            guard !other.isEmpty, !bytes.isEmpty else { return }
            let from = rng.below(other.count)
            let length = 1 + rng.below(min(other.count - from, 64))
            let to = rng.below(bytes.count)
            let end = min(bytes.count, to + length)
            bytes.replaceSubrange(to..<end, with: other[from..<from + length])
        case .truncate:
            guard !bytes.isEmpty else { return }
            bytes.removeLast(1 + rng.below(bytes.count))
        case .lengthField:
            tweakLength(&bytes, rng: &rng)
        case .swapBytes:
            guard bytes.count >= 2 else { return }
            bytes.swapAt(rng.below(bytes.count), rng.below(bytes.count))
        }
    }

    private func insertRandom(_ bytes: inout [UInt8], rng: inout SplitMix64) {
        let count = 1 + rng.below(8)
        let fill = (0..<count).map { _ in rng.oneIn(3) ? rng.pick(Self.interestingBytes) : rng.byte() }
        bytes.insert(contentsOf: fill, at: rng.below(bytes.count + 1))
    }

    /// Rewrites a length where one might be: a big-endian u32 (frames), u16, or a LEB128 varint
    /// (Core's encoding), with a boundary value, a neighbour of the old value, or the bytes that remain.
    private func tweakLength(_ bytes: inout [UInt8], rng: inout SplitMix64) {
        if bytes.isEmpty { bytes = [0] }
        let offset = rng.below(bytes.count)
        let remaining = UInt64(bytes.count - offset)
        func candidate(old: UInt64) -> UInt64 {
            switch rng.below(4) {
            case 0: return rng.pick(Self.interestingLengths)
            case 1: return old &+ UInt64(1 + rng.below(4))
            case 2: return old &- UInt64(1 + rng.below(4))
            default: return remaining &- UInt64(rng.below(6))
            }
        }
        switch rng.below(3) {
        case 0:
            while bytes.count < offset + 4 { bytes.append(0) }
            let old = bytes[offset..<offset + 4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let value = UInt32(truncatingIfNeeded: candidate(old: old))
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * index)) }
        case 1:
            while bytes.count < offset + 2 { bytes.append(0) }
            let old = UInt64(bytes[offset]) << 8 | UInt64(bytes[offset + 1])
            let value = UInt16(truncatingIfNeeded: candidate(old: old))
            bytes[offset] = UInt8(value >> 8)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: value)
        default:
            // Read the varint that starts here (if any), replace it by another, sometimes overlong.
            var end = offset
            var old: UInt64 = 0
            var shift: UInt64 = 0
            while end < bytes.count && end - offset < 10 {
                if shift < 64 { old |= UInt64(bytes[end] & 0x7F) << shift }
                shift += 7
                end += 1
                if bytes[end - 1] & 0x80 == 0 { break }
            }
            var encoded = Self.leb128(rng.oneIn(4) ? old : candidate(old: old))
            if rng.oneIn(4) {
                encoded[encoded.count - 1] |= 0x80
                encoded.append(0)  // the overlong form the reader must refuse
            }
            bytes.replaceSubrange(offset..<end, with: encoded)
        }
    }

    /// Unsigned LEB128, as the delta encoding writes lengths (`ByteWriter.writeVarint`).
    static func leb128(_ value: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 10)
        writer.writeVarint(value)
        return writer.bytes
    }
}
