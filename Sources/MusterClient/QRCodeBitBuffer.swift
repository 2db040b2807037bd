/// A growing sequence of bits, most significant first, as the QR bit stream is defined.
///
/// One `Bool` per bit keeps the code obvious; the largest symbol holds under 24 000 data bits.
struct QRCodeBitBuffer: Sendable, Equatable {
    private(set) var bits: [Bool] = []

    var count: Int { bits.count }

    /// Appends the low `width` bits of `value`, highest first.
    mutating func append(_ value: Int, width: Int) {
        precondition(width >= 0 && width <= 31 && value >> width == 0, "value does not fit its field")
        for shift in stride(from: width - 1, through: 0, by: -1) {
            bits.append((value >> shift) & 1 == 1)
        }
    }

    /// The bits packed into bytes; a final partial byte is padded with zeros on the right.
    var bytes: [UInt8] {
        var result = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (index, bit) in bits.enumerated() where bit {
            result[index / 8] |= 0x80 >> UInt8(index % 8)
        }
        return result
    }
}
