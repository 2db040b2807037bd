/// The per-version numbers of ISO/IEC 18004 that cannot be derived by a short formula.
///
/// Only two columns of the standard's Table 9 are stored (parity codewords per block, number of
/// blocks); everything else — total codewords, data capacity, block lengths — follows from the
/// symbol's geometry, so a typo in one place cannot silently disagree with another.
enum QRCodeTable {
    static let versions = 1...40

    /// Side length in modules: 21 for version 1, four more per version, 177 for version 40.
    static func size(version: Int) -> Int { 17 + 4 * version }

    /// Modules left for codewords after the function patterns and format/version information,
    /// including the 0–7 remainder bits that do not make up a whole codeword.
    static func rawDataModules(version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignmentCount = version / 7 + 2
            result -= (25 * alignmentCount - 10) * alignmentCount - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    /// Data plus parity codewords in the symbol.
    static func totalCodewords(version: Int) -> Int { rawDataModules(version: version) / 8 }

    /// Codewords left for the payload (mode, count, data, terminator, padding).
    static func dataCodewords(version: Int, level: QRCode.ErrorCorrection) -> Int {
        totalCodewords(version: version)
            - parityPerBlock(version: version, level: level) * blockCount(version: version, level: level)
    }

    /// Reed–Solomon parity codewords in each block; the same for every block of a symbol.
    static func parityPerBlock(version: Int, level: QRCode.ErrorCorrection) -> Int {
        parityTable[level.rawValue][version - 1]
    }

    /// How many Reed–Solomon blocks the codewords are split into.
    static func blockCount(version: Int, level: QRCode.ErrorCorrection) -> Int {
        blockTable[level.rawValue][version - 1]
    }

    /// Data codewords of each block, in order: the short blocks come first and the rest hold one more.
    static func blockDataLengths(version: Int, level: QRCode.ErrorCorrection) -> [Int] {
        let blocks = blockCount(version: version, level: level)
        let total = totalCodewords(version: version)
        let shortBlocks = blocks - total % blocks
        let shortData = total / blocks - parityPerBlock(version: version, level: level)
        return (0..<blocks).map { $0 < shortBlocks ? shortData : shortData + 1 }
    }

    /// Row/column centres of the alignment patterns (ISO/IEC 18004 Annex E): 6, then evenly spaced
    /// (an even step) back from `size - 7`.
    static func alignmentPositions(version: Int) -> [Int] {
        guard version >= 2 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        let last = size(version: version) - 7
        return [6] + (0..<(count - 1)).reversed().map { last - $0 * step }
    }

    /// ISO/IEC 18004 Table 9, parity codewords per block, rows L, M, Q, H; columns versions 1–40.
    private static let parityTable: [[Int]] = [
        [
            7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
            28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
            26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        ],
        [
            13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
            28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
            30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
    ]

    /// ISO/IEC 18004 Table 9, number of blocks, rows L, M, Q, H; columns versions 1–40.
    private static let blockTable: [[Int]] = [
        [
            1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
            8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25,
        ],
        [
            1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
            17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
        ],
        [
            1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
            23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
        ],
        [
            1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
            25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
        ],
    ]
}
