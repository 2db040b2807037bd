/// Turns a segment into the final codeword sequence of a symbol: version choice, the bit stream
/// with terminator and padding, Reed–Solomon parity per block, and block interleaving.
///
/// Kept apart from module placement so each stage can be checked against the codeword vectors
/// the standard publishes, before any matrix exists.
enum QRCodeEncoder {
    /// The two pad codewords (0b11101100, 0b00010001) that fill unused capacity, alternating.
    static let padCodewords: [UInt8] = [0xEC, 0x11]

    /// The smallest version whose data capacity at `level` holds `segment`, or `nil` if none does.
    static func smallestVersion(for segment: QRCodeSegment, level: QRCode.ErrorCorrection) -> Int? {
        QRCodeTable.versions.first { version in
            guard let bits = segment.encodedBits(version: version) else { return false }
            return bits <= QRCodeTable.dataCodewords(version: version, level: level) * 8
        }
    }

    /// The most characters (bytes, in byte mode) of `mode` that fit in `version` at `level`.
    static func capacity(mode: QRCodeSegment.Mode, version: Int, level: QRCode.ErrorCorrection) -> Int {
        let countBits = mode.countBits(version: version)
        let bits = QRCodeTable.dataCodewords(version: version, level: level) * 8 - 4 - countBits
        let characters: Int
        switch mode {
        case .numeric: characters = bits / 10 * 3 + (bits % 10 >= 7 ? 2 : bits % 10 >= 4 ? 1 : 0)
        case .alphanumeric: characters = bits / 11 * 2 + (bits % 11 >= 6 ? 1 : 0)
        case .byte: characters = bits / 8
        }
        return min(characters, (1 << countBits) - 1)
    }

    /// Mode indicator, count, data, up to four terminator zeros, zero bits to a byte boundary,
    /// then pad codewords up to the data capacity of `version`.
    static func dataCodewords(for segment: QRCodeSegment, version: Int, level: QRCode.ErrorCorrection) -> [UInt8] {
        let capacityBits = QRCodeTable.dataCodewords(version: version, level: level) * 8
        var buffer = QRCodeBitBuffer()
        buffer.append(segment.mode.indicator, width: 4)
        buffer.append(segment.count, width: segment.mode.countBits(version: version))
        for bit in segment.data.bits { buffer.append(bit ? 1 : 0, width: 1) }
        buffer.append(0, width: min(4, capacityBits - buffer.count))
        buffer.append(0, width: (8 - buffer.count % 8) % 8)
        var codewords = buffer.bytes
        for index in 0..<(capacityBits / 8 - codewords.count) {
            codewords.append(padCodewords[index % 2])
        }
        return codewords
    }

    /// Splits `data` into the blocks of `version`/`level`, appends each block's parity, and reads
    /// the blocks column by column (all first codewords, then all second ones, …), so that a
    /// burst of damage in the symbol is spread over several blocks.
    static func interleave(_ data: [UInt8], version: Int, level: QRCode.ErrorCorrection) -> [UInt8] {
        let parityLength = QRCodeTable.parityPerBlock(version: version, level: level)
        var blocks: [[UInt8]] = []
        var start = 0
        for length in QRCodeTable.blockDataLengths(version: version, level: level) {
            blocks.append(Array(data[start..<start + length]))
            start += length
        }
        let parities = blocks.map { QRCodeReedSolomon.parity(for: $0, degree: parityLength) }
        var result: [UInt8] = []
        result.reserveCapacity(QRCodeTable.totalCodewords(version: version))
        for column in 0..<(blocks.map(\.count).max() ?? 0) {
            for block in blocks where column < block.count { result.append(block[column]) }
        }
        for column in 0..<parityLength {
            for parity in parities { result.append(parity[column]) }
        }
        return result
    }
}
