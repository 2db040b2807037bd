extension QRCodeMatrix {
    /// The 15-bit format information for `level` and `mask` (ISO/IEC 18004 §7.9.1): five data
    /// bits, ten BCH(15,5) check bits from the generator x¹⁰+x⁸+x⁵+x⁴+x²+x+1 (0x537), then XOR
    /// 0x5412 so that no combination is all zeros. A reader reads this first, before it knows
    /// anything else, hence the strong code and the two copies.
    static func formatInformation(level: QRCode.ErrorCorrection, mask: QRCodeMask) -> Int {
        let data = level.formatBits << 3 | mask.reference
        return (data << 10 | bchRemainder(data << 10, generator: 0x537)) ^ 0x5412
    }

    /// The 18-bit version information for versions 7–40 (ISO/IEC 18004 §7.10): six data bits and
    /// twelve BCH(18,6) check bits from x¹²+x¹¹+x¹⁰+x⁹+x⁸+x⁵+x²+1 (0x1F25). Smaller versions
    /// carry none, since their size alone identifies them.
    static func versionInformation(version: Int) -> Int {
        version << 12 | bchRemainder(version << 12, generator: 0x1F25)
    }

    /// The remainder of the polynomial `value` divided by `generator` over GF(2).
    private static func bchRemainder(_ value: Int, generator: Int) -> Int {
        let degree = Int.bitWidth - 1 - generator.leadingZeroBitCount
        var remainder = value
        while remainder != 0, Int.bitWidth - 1 - remainder.leadingZeroBitCount >= degree {
            remainder ^= generator << (Int.bitWidth - 1 - remainder.leadingZeroBitCount - degree)
        }
        return remainder
    }
}
