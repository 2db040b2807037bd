import MusterControl
import MusterStore
import Testing

@testable import MusterClient

// Every expected value below comes from outside this encoder: the standard's worked examples and
// tables (ISO/IEC 18004 Annex I, Tables 7, 9, C.1, D.1, Annex E, as reprinted in Thonky's QR code
// tutorial), and symbols published by other encoders' test suites (ZXing's EncoderTestCase,
// Project Nayuki's qrcodegen). A self-consistent but wrong encoder fails them.

@Suite("QRCode: Reed–Solomon and codewords")
struct QRCodeCodewordTests {
    /// ISO/IEC 18004 Annex I: "01234567" at 1-M.
    @Test func isoAnnexIExample() {
        let data = QRCodeEncoder.dataCodewords(for: .text("01234567"), version: 1, level: .medium)
        #expect(hex(data) == "10 20 0C 56 61 80 EC 11 EC 11 EC 11 EC 11 EC 11")
        #expect(hex(QRCodeReedSolomon.parity(for: data, degree: 10)) == "A5 24 D4 C1 ED 36 C7 87 2C 55")
    }

    /// Thonky's worked example: "HELLO WORLD" at 1-Q (alphanumeric), and the same data at 1-M.
    @Test func helloWorldExample() {
        let quartile = QRCodeEncoder.dataCodewords(for: .text("HELLO WORLD"), version: 1, level: .quartile)
        #expect(quartile == [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236])
        #expect(
            QRCodeReedSolomon.parity(for: quartile, degree: 13)
                == [168, 72, 22, 82, 217, 54, 156, 0, 46, 15, 180, 122, 16]
        )
        let medium = QRCodeEncoder.dataCodewords(for: .text("HELLO WORLD"), version: 1, level: .medium)
        #expect(medium == [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17])
        #expect(QRCodeReedSolomon.parity(for: medium, degree: 10) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    /// ZXing's generateECBytes vectors (from swetake.com), including a remainder with leading zeros.
    @Test func zxingParityVectors() {
        #expect(
            QRCodeReedSolomon.parity(for: [32, 65, 205, 69, 41, 220, 46, 128, 236], degree: 17)
                == [42, 159, 74, 221, 244, 169, 239, 150, 138, 70, 237, 85, 224, 96, 74, 219, 61]
        )
        let fifteen: [UInt8] = [67, 70, 22, 38, 54, 70, 86, 102, 118, 134, 150, 166, 182, 198, 214]
        #expect(
            QRCodeReedSolomon.parity(for: fifteen, degree: 18)
                == [175, 80, 155, 64, 178, 45, 214, 233, 65, 209, 12, 155, 117, 31, 140, 214, 27, 187]
        )
        #expect(
            QRCodeReedSolomon.parity(for: [32, 49, 205, 69, 42, 20, 0, 236, 17], degree: 17)
                == [0, 3, 130, 179, 194, 0, 55, 211, 110, 79, 98, 72, 170, 96, 211, 137, 213]
        )
    }

    /// ZXing's interleaveWithECBytes vector: 62 data codewords in version 5-Q's four blocks (2×15, 2×16).
    @Test func zxingInterleavingVector() {
        let data: [UInt8] = [
            67, 70, 22, 38, 54, 70, 86, 102, 118, 134, 150, 166, 182, 198, 214, 230, 247, 7, 23, 39, 55, 71, 87, 103,
            119, 135, 151, 166, 22, 38, 54, 70, 86, 102, 118, 134, 150, 166, 182, 198, 214, 230, 247, 7, 23, 39, 55, 71,
            87, 103, 119, 135, 151, 160, 236, 17, 236, 17, 236, 17, 236, 17,
        ]
        let expected: [UInt8] = [
            67, 230, 54, 55, 70, 247, 70, 71, 22, 7, 86, 87, 38, 23, 102, 103, 54, 39, 118, 119, 70, 55, 134, 135, 86,
            71, 150, 151, 102, 87, 166, 160, 118, 103, 182, 236, 134, 119, 198, 17, 150, 135, 214, 236, 166, 151, 230,
            17, 182, 166, 247, 236, 198, 22, 7, 17, 214, 38, 23, 236, 39, 17,
            175, 155, 245, 236, 80, 146, 56, 74, 155, 165, 133, 142, 64, 183, 132, 13, 178, 54, 132, 108, 45, 113, 53,
            50, 214, 98, 193, 152, 233, 147, 50, 71, 65, 190, 82, 51, 209, 199, 171, 54, 12, 112, 57, 113, 155, 117,
            211, 164, 117, 30, 158, 225, 31, 190, 242, 38, 140, 61, 179, 154, 214, 138, 147, 87, 27, 96, 77, 47, 187,
            49, 156, 214,
        ]
        #expect(QRCodeEncoder.interleave(data, version: 5, level: .quartile) == expected)
    }

    /// ZXing's bit-level vectors for each mode's character encoding.
    @Test func segmentBits() {
        #expect(bitString(QRCodeSegment.text("1").data) == "0001")
        #expect(bitString(QRCodeSegment.text("12").data) == "0001100")
        #expect(bitString(QRCodeSegment.text("123").data) == "0001111011")
        #expect(bitString(QRCodeSegment.text("1234").data) == "00011110110100")
        #expect(bitString(QRCodeSegment.text("A").data) == "001010")
        #expect(bitString(QRCodeSegment.text("AB").data) == "00111001101")
        #expect(bitString(QRCodeSegment.text("ABC").data) == "00111001101001100")
        #expect(bitString(QRCodeSegment.text("abc").data) == "011000010110001001100011")
    }

    @Test func textPicksTheDensestMode() {
        #expect(QRCodeSegment.text("0123456789").mode == .numeric)
        #expect(QRCodeSegment.text("HELLO WORLD $%*+-./:").mode == .alphanumeric)
        #expect(QRCodeSegment.text("Hello").mode == .byte)
        #expect(QRCodeSegment.text("").mode == .byte)
        #expect(QRCodeSegment.text("Zoë").count == 4, "byte mode counts UTF-8 bytes")
    }
}

@Suite("QRCode: format, version and layout tables")
struct QRCodeTableTests {
    /// ISO/IEC 18004 Table C.1: all 32 format information strings.
    @Test(arguments: QRCode.ErrorCorrection.allCases)
    func formatInformation(level: QRCode.ErrorCorrection) {
        let row = ["L": 0, "M": 1, "Q": 2, "H": 3][level.description] ?? 0
        for mask in 0..<8 {
            let bits = QRCodeMatrix.formatInformation(level: level, mask: QRCodeMask(reference: mask))
            #expect(bits == Int(QRReader.formatStrings[row * 8 + mask], radix: 2), "\(level) mask \(mask)")
        }
    }

    /// ISO/IEC 18004 Table D.1: the 18-bit version information of versions 7–40.
    @Test func versionInformation() {
        for version in 7...40 {
            let expected = QRReader.versionStrings[version - 7]
            #expect(QRCodeMatrix.versionInformation(version: version) == expected, "v\(version)")
        }
        #expect(QRCodeMatrix.versionInformation(version: 7) == 0b000111_110010010100)
    }

    /// ISO/IEC 18004 Annex E, Table E.1.
    @Test func alignmentPatternCentres() {
        for version in 1...40 {
            #expect(QRCodeTable.alignmentPositions(version: version) == QRReader.alignment[version - 1], "v\(version)")
        }
    }

    /// Rows of ISO/IEC 18004 Table 9: parity per block, then (blocks × data codewords) groups.
    @Test func blockStructure() {
        let expected: [(Int, QRCode.ErrorCorrection, String)] = [
            (1, .high, "17: 1×9"), (3, .high, "22: 2×13"), (5, .quartile, "18: 2×15 2×16"),
            (7, .high, "26: 4×13 1×14"), (11, .medium, "30: 1×50 4×51"), (13, .high, "22: 12×11 4×12"),
            (15, .low, "22: 5×87 1×88"), (22, .high, "24: 34×13"), (27, .medium, "28: 22×45 3×46"),
            (31, .quartile, "30: 42×24 1×25"), (36, .high, "30: 2×15 64×16"), (40, .low, "30: 19×118 6×119"),
            (40, .medium, "28: 18×47 31×48"), (40, .quartile, "30: 34×24 34×25"), (40, .high, "30: 20×15 61×16"),
        ]
        for (version, level, row) in expected {
            let lengths = QRCodeTable.blockDataLengths(version: version, level: level)
            let groups = Set(lengths).sorted().map { length in "\(lengths.filter { $0 == length }.count)×\(length)" }
            let parity = QRCodeTable.parityPerBlock(version: version, level: level)
            let actual = "\(parity): " + groups.joined(separator: " ")
            #expect(actual == row, "\(version)-\(level)")
        }
    }

    /// ISO/IEC 18004 Table 7: characters per mode (numeric / alphanumeric / byte) at each level.
    @Test func publishedCapacities() {
        let expected: [(Int, QRCode.ErrorCorrection, [Int])] = [
            (1, .low, [41, 25, 17]), (1, .medium, [34, 20, 14]), (1, .quartile, [27, 16, 11]), (1, .high, [17, 10, 7]),
            (10, .low, [652, 395, 271]), (10, .medium, [513, 311, 213]), (10, .quartile, [364, 221, 151]),
            (10, .high, [288, 174, 119]),
            (40, .low, [7089, 4296, 2953]), (40, .medium, [5596, 3391, 2331]), (40, .quartile, [3993, 2420, 1663]),
            (40, .high, [3057, 1852, 1273]),
        ]
        for (version, level, capacities) in expected {
            let actual = [QRCodeSegment.Mode.numeric, .alphanumeric, .byte].map {
                QRCodeEncoder.capacity(mode: $0, version: version, level: level)
            }
            #expect(actual == capacities, "\(version)-\(level)")
        }
    }

    /// The largest byte payload of each version stays in it; one more byte needs the next version.
    @Test(arguments: QRCode.ErrorCorrection.allCases)
    func capacityBoundaries(level: QRCode.ErrorCorrection) {
        for version in 1...40 {
            let capacity = QRCodeEncoder.capacity(mode: .byte, version: version, level: level)
            let fits = QRCodeSegment.bytes([UInt8](repeating: 0x61, count: capacity))
            let over = QRCodeSegment.bytes([UInt8](repeating: 0x61, count: capacity + 1))
            #expect(QRCodeEncoder.smallestVersion(for: fits, level: level) == version, "\(version)-\(level)")
            #expect(
                QRCodeEncoder.smallestVersion(for: over, level: level) == (version < 40 ? version + 1 : nil),
                "\(version)-\(level) plus one byte"
            )
        }
    }

    @Test func overVersion40Throws() throws {
        let largest = try QRCode([UInt8](repeating: 0x7A, count: 2953), errorCorrection: .low)
        #expect(largest.version == 40 && largest.size == 177)
        #expect(throws: QRCodeError.tooLong(bytes: 2954, maximum: 2953, level: .low)) {
            try QRCode([UInt8](repeating: 0x7A, count: 2954), errorCorrection: .low)
        }
        #expect(throws: QRCodeError.tooLong(bytes: 1853, maximum: 1852, level: .high)) {
            try QRCode(text: String(repeating: "A", count: 1853), errorCorrection: .high)
        }
        let message = QRCodeError.tooLong(bytes: 2954, maximum: 2953, level: .low).description
        #expect(message.contains("2954") && message.contains("2953") && message.contains("level L"))
    }

    @Test func smallPayloadsPickSmallVersions() throws {
        #expect(try QRCode([UInt8](repeating: 1, count: 14)).version == 1)
        #expect(try QRCode([UInt8](repeating: 1, count: 15)).version == 2)
        #expect(try QRCode(text: "HELLO WORLD", errorCorrection: .quartile).version == 1)
        #expect(try QRCode(text: "").version == 1)
    }
}

@Suite("QRCode: the symbol")
struct QRCodeMatrixTests {
    /// ZXing EncoderTestCase.testEncode: "ABCDEF" at 1-H, which its penalty rules give mask 4.
    @Test func zxingAlphanumericSymbol() throws {
        let code = try QRCode(text: "ABCDEF", errorCorrection: .high)
        #expect(code.version == 1 && code.mask == 4)
        #expect(rows(code) == parse(Reference.abcdefHighMask4))
    }

    /// ZXing EncoderTestCase.testEncodeShiftjisNumeric: "0123" at 1-M, numeric mode, mask 2.
    @Test func zxingNumericSymbol() throws {
        let code = try QRCode(text: "0123", errorCorrection: .medium)
        #expect(code.mask == 2)
        #expect(rows(code) == parse(Reference.numeric0123MediumMask2))
    }

    /// "HELLO WORLD" at 1-Q, the tutorial's example, as Project Nayuki's qrcodegen draws it (mask 0).
    @Test func helloWorldSymbol() throws {
        let code = try QRCode(text: "HELLO WORLD", errorCorrection: .quartile)
        #expect(code.mask == 0)
        #expect(rows(code) == parse(Reference.helloWorldQuartileMask0))
    }

    /// An earlier revision of ZXing's test published "ABCDEF" 1-H with mask 0; forcing that mask
    /// checks placement apart from mask selection.
    @Test func forcedMaskMatchesEarlierZXingSymbol() throws {
        let code = try QRCode(segment: .text("ABCDEF"), errorCorrection: .high, forcedMask: QRCodeMask(reference: 0))
        #expect(rows(code) == parse(Reference.abcdefHighMask0))
    }

    @Test(arguments: [1, 2, 6, 7, 14, 27, 40])
    func functionPatterns(version: Int) throws {
        let capacity = QRCodeEncoder.capacity(mode: .byte, version: version, level: .medium)
        let code = try QRCode([UInt8](repeating: 0xA5, count: capacity), errorCorrection: .medium)
        #expect(code.version == version && code.size == 17 + 4 * version)
        let size = code.size
        for (left, top) in [(0, 0), (size - 7, 0), (0, size - 7)] {
            for dy in -1...7 {
                for dx in -1...7 {
                    let ring = max(abs(dx - 3), abs(dy - 3))
                    let expected = ring != 2 && ring != 4
                    #expect(code[left + dx, top + dy] == expected, "finder at (\(left), \(top)) offset (\(dx), \(dy))")
                }
            }
        }
        for index in 8..<(size - 8) {
            #expect(code[index, 6] == (index % 2 == 0), "horizontal timing at \(index)")
            #expect(code[6, index] == (index % 2 == 0), "vertical timing at \(index)")
        }
        #expect(code[8, 4 * version + 9], "dark module")
        #expect(!code[-1, 0] && !code[0, size] && !code[size, size], "outside the symbol is quiet zone")
    }

    /// Reads symbols back like a scanner (format, version, unmasking, de-interleaving, syndromes,
    /// segment parsing) at every level, in versions from each band of count-field widths.
    @Test(arguments: QRCode.ErrorCorrection.allCases)
    func roundTrip(level: QRCode.ErrorCorrection) throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func nextByte() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
        for version in [1, 2, 5, 7, 9, 10, 13, 21, 26, 27, 33] {
            let capacity = QRCodeEncoder.capacity(mode: .byte, version: version, level: level)
            let bytes = (0..<capacity).map { _ in nextByte() }
            let code = try QRCode(bytes, errorCorrection: level)
            #expect(code.version == version)
            let decoded = try QRReader.read(code)
            #expect(decoded.payload == bytes, "\(version)-\(level)")
            #expect(decoded.level == level && decoded.mask == code.mask && decoded.mode == 0b0100)
        }
        for text in ["31415926535897932384626433832795", "MUSTER JOIN:HALL-A/42", "Zoë's kiosk ✓"] {
            let code = try QRCode(text: text, errorCorrection: level)
            #expect(try QRReader.read(code).payload == Array(text.utf8), "\(text)")
        }
    }
}

@Suite("QRCode: terminal text")
struct QRCodeTerminalTextTests {
    @Test func onlyBlocksSpacesAndNewlines() throws {
        let code = try QRCode(text: "muster://join?kiosk=hall-a&token=3f9a", errorCorrection: .medium)
        for darkBackground in [true, false] {
            let text = code.terminalText(darkBackground: darkBackground)
            #expect(text.unicodeScalars.allSatisfy { " ▀▄█\n".unicodeScalars.contains($0) })
            #expect(!text.hasSuffix("\n"))
        }
    }

    /// Decoding the half blocks gives back every module, inverted on a dark background, and the
    /// quiet zone drawn as light.
    @Test(arguments: [0, 1, 2, 4])
    func drawsEveryModule(quietZone: Int) throws {
        let code = try QRCode(text: "HELLO WORLD", errorCorrection: .quartile)
        for darkBackground in [true, false] {
            let lines = code.terminalText(quietZone: quietZone, darkBackground: darkBackground)
                .split(separator: "\n", omittingEmptySubsequences: false)
            let side = code.size + 2 * quietZone
            #expect(lines.count == (side + 1) / 2)
            for (row, line) in lines.enumerated() {
                let cells = Array(line)
                #expect(cells.count == side)
                for (column, cell) in cells.enumerated() {
                    let top = cell == "█" || cell == "▀"
                    let bottom = cell == "█" || cell == "▄"
                    let x = column - quietZone
                    let y = 2 * row - quietZone
                    #expect(top == (code[x, y] != darkBackground), "(\(x), \(y))")
                    if y + 1 < code.size + quietZone {
                        #expect(bottom == (code[x, y + 1] != darkBackground), "(\(x), \(y + 1))")
                    } else {
                        #expect(!bottom, "below the last row is left as background")
                    }
                }
            }
        }
    }

    @Test func darkBackgroundDrawsTheQuietZoneAsBlocks() throws {
        let text = try QRCode(text: "1").terminalText(quietZone: 2)
        let lines = text.split(separator: "\n")
        #expect(lines.first == Substring(String(repeating: "█", count: 25)))
        #expect(lines.last == Substring(String(repeating: "▀", count: 25)))
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("██") && $0.hasSuffix("██") })
        #expect(try QRCode(text: "1").terminalText(quietZone: -3) == QRCode(text: "1").terminalText(quietZone: 0))
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }.joined(separator: " ")
}

private func bitString(_ buffer: QRCodeBitBuffer) -> String {
    String(buffer.bits.map { $0 ? "1" : "0" })
}

private func rows(_ code: QRCode) -> [String] {
    (0..<code.size).map { y in String((0..<code.size).map { x in code[x, y] ? "1" : "0" }) }
}

/// Accepts ZXing's "1 0 1 …" rows and plain "101…" rows alike.
private func parse(_ block: String) -> [String] {
    block.split(separator: "\n").map { String($0.filter { $0 == "0" || $0 == "1" }) }.filter { !$0.isEmpty }
}

/// Published symbols, dark = 1, row by row from the top.
private enum Reference {
    static let abcdefHighMask4 = """
        1 1 1 1 1 1 1 0 0 1 0 1 0 0 1 1 1 1 1 1 1
        1 0 0 0 0 0 1 0 1 0 1 0 1 0 1 0 0 0 0 0 1
        1 0 1 1 1 0 1 0 0 0 0 0 0 0 1 0 1 1 1 0 1
        1 0 1 1 1 0 1 0 0 1 0 0 1 0 1 0 1 1 1 0 1
        1 0 1 1 1 0 1 0 0 1 0 1 0 0 1 0 1 1 1 0 1
        1 0 0 0 0 0 1 0 1 0 0 1 1 0 1 0 0 0 0 0 1
        1 1 1 1 1 1 1 0 1 0 1 0 1 0 1 1 1 1 1 1 1
        0 0 0 0 0 0 0 0 1 0 0 0 1 0 0 0 0 0 0 0 0
        0 0 0 0 1 1 1 1 0 1 1 0 1 0 1 1 0 0 0 1 0
        0 0 0 0 1 1 0 1 1 1 0 0 1 1 1 1 0 1 1 0 1
        1 0 0 0 0 1 1 0 0 1 0 1 0 0 0 1 1 1 0 1 1
        1 0 0 1 1 1 0 0 1 1 1 1 0 0 0 0 1 0 0 0 0
        0 1 1 1 1 1 1 0 1 0 1 0 1 1 1 0 0 1 1 0 0
        0 0 0 0 0 0 0 0 1 1 0 0 0 1 1 0 0 0 1 0 1
        1 1 1 1 1 1 1 0 1 1 1 1 0 0 0 0 0 1 1 0 0
        1 0 0 0 0 0 1 0 1 1 0 1 0 0 0 1 0 1 1 1 1
        1 0 1 1 1 0 1 0 1 0 0 1 0 0 0 1 1 0 0 1 1
        1 0 1 1 1 0 1 0 0 0 1 1 0 1 0 0 0 0 1 1 1
        1 0 1 1 1 0 1 0 0 1 0 1 0 0 0 1 1 0 0 0 0
        1 0 0 0 0 0 1 0 0 1 0 0 1 0 0 1 1 0 0 0 1
        1 1 1 1 1 1 1 0 0 0 1 0 0 1 0 0 0 0 1 1 1
        """

    static let abcdefHighMask0 = """
        1 1 1 1 1 1 1 0 1 1 1 1 0 0 1 1 1 1 1 1 1
        1 0 0 0 0 0 1 0 0 1 1 1 0 0 1 0 0 0 0 0 1
        1 0 1 1 1 0 1 0 0 1 0 1 1 0 1 0 1 1 1 0 1
        1 0 1 1 1 0 1 0 1 1 1 0 1 0 1 0 1 1 1 0 1
        1 0 1 1 1 0 1 0 0 1 1 1 0 0 1 0 1 1 1 0 1
        1 0 0 0 0 0 1 0 0 1 0 0 0 0 1 0 0 0 0 0 1
        1 1 1 1 1 1 1 0 1 0 1 0 1 0 1 1 1 1 1 1 1
        0 0 0 0 0 0 0 0 0 0 1 0 1 0 0 0 0 0 0 0 0
        0 0 1 0 1 1 1 0 1 1 0 0 1 1 0 0 0 1 0 0 1
        1 0 1 1 1 0 0 1 0 0 0 1 0 1 0 0 0 0 0 0 0
        0 0 1 1 0 0 1 0 1 0 0 0 1 0 1 0 1 0 1 1 0
        1 1 0 1 0 1 0 1 1 1 0 1 0 1 0 0 0 0 0 1 0
        0 0 1 1 0 1 1 1 1 0 0 0 1 0 1 0 1 1 1 1 0
        0 0 0 0 0 0 0 0 1 0 0 1 1 1 0 1 0 1 0 0 0
        1 1 1 1 1 1 1 0 0 0 1 0 1 0 1 1 0 0 0 0 1
        1 0 0 0 0 0 1 0 1 1 1 1 0 1 0 1 1 1 1 0 1
        1 0 1 1 1 0 1 0 1 0 1 1 0 1 0 1 0 0 0 0 1
        1 0 1 1 1 0 1 0 0 1 1 0 1 1 1 1 0 1 0 1 0
        1 0 1 1 1 0 1 0 1 0 0 0 1 0 1 0 1 1 1 0 1
        1 0 0 0 0 0 1 0 0 1 1 0 1 1 0 1 0 0 0 1 1
        1 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 1 0 1 0 1
        """

    static let numeric0123MediumMask2 = """
        1 1 1 1 1 1 1 0 0 1 1 0 1 0 1 1 1 1 1 1 1
        1 0 0 0 0 0 1 0 0 1 0 0 1 0 1 0 0 0 0 0 1
        1 0 1 1 1 0 1 0 1 0 0 0 0 0 1 0 1 1 1 0 1
        1 0 1 1 1 0 1 0 1 0 1 1 1 0 1 0 1 1 1 0 1
        1 0 1 1 1 0 1 0 1 1 0 1 1 0 1 0 1 1 1 0 1
        1 0 0 0 0 0 1 0 1 1 0 0 1 0 1 0 0 0 0 0 1
        1 1 1 1 1 1 1 0 1 0 1 0 1 0 1 1 1 1 1 1 1
        0 0 0 0 0 0 0 0 1 1 1 1 1 0 0 0 0 0 0 0 0
        1 0 1 1 1 1 1 0 0 1 1 0 1 0 1 1 1 1 1 0 0
        1 1 0 0 0 1 0 0 1 0 1 0 1 0 0 1 0 0 1 0 0
        0 1 1 0 1 1 1 1 0 1 1 1 0 1 0 0 1 1 0 1 1
        1 0 1 1 0 1 0 1 0 0 1 0 0 0 0 1 1 0 1 0 0
        0 0 1 0 0 1 1 1 0 0 0 1 0 1 0 0 1 0 1 0 0
        0 0 0 0 0 0 0 0 1 1 0 1 1 1 1 0 0 1 0 0 0
        1 1 1 1 1 1 1 0 0 0 1 0 1 0 1 1 0 0 0 0 0
        1 0 0 0 0 0 1 0 1 1 0 1 1 1 1 0 0 1 0 1 0
        1 0 1 1 1 0 1 0 1 0 1 0 1 0 0 1 0 0 1 0 0
        1 0 1 1 1 0 1 0 1 1 1 0 1 0 0 1 0 0 1 0 0
        1 0 1 1 1 0 1 0 1 1 0 1 0 1 0 0 1 1 1 0 0
        1 0 0 0 0 0 1 0 0 0 1 0 0 0 0 1 1 0 1 1 0
        1 1 1 1 1 1 1 0 1 1 0 1 0 1 0 0 1 1 1 0 0
        """

    static let helloWorldQuartileMask0 = """
        111111101100001111111
        100000101001001000001
        101110101001101011101
        101110101000001011101
        101110101010001011101
        100000100010001000001
        111111101010101111111
        000000001000000000000
        011010110000101011111
        010000001111000010001
        001101110110001011000
        011011010011010101110
        100010101011101110101
        000000001101001000101
        111111101010000101100
        100000100101101101000
        101110101010001111111
        101110100101010100010
        101110101001011101001
        100000101011110001011
        111111100001011100001
        """
}

/// Reads a symbol back the way a scanner would, using only published tables and its own GF(256)
/// arithmetic, so that a round trip checks the encoder rather than agreeing with itself.
private struct QRReader {
    struct Decoded: Equatable {
        var level: QRCode.ErrorCorrection
        var mask: Int
        var mode: Int
        var payload: [UInt8]
    }
    enum Failure: Error, Equatable { case format, version, syndrome(block: Int), stream(String) }

    static let formatStrings: [String] = [
        "111011111000100", "111001011110011", "111110110101010", "111100010011101",
        "110011000101111", "110001100011000", "110110001000001", "110100101110110",
        "101010000010010", "101000100100101", "101111001111100", "101101101001011",
        "100010111111001", "100000011001110", "100111110010111", "100101010100000",
        "011010101011111", "011000001101000", "011111100110001", "011101000000110",
        "010010010110100", "010000110000011", "010111011011010", "010101111101101",
        "001011010001001", "001001110111110", "001110011100111", "001100111010000",
        "000011101100010", "000001001010101", "000110100001100", "000100000111011",
    ]
    static let versionStrings: [Int] = [
        0x07C94, 0x085BC, 0x09A99, 0x0A4D3, 0x0BBF6, 0x0C762, 0x0D847, 0x0E60D, 0x0F928, 0x10B78,
        0x1145D, 0x12A17, 0x13532, 0x149A6, 0x15683, 0x168C9, 0x177EC, 0x18EC4, 0x191E1, 0x1AFAB,
        0x1B08E, 0x1CC1A, 0x1D33F, 0x1ED75, 0x1F250, 0x209D5, 0x216F0, 0x228BA, 0x2379F, 0x24B0B,
        0x2542E, 0x26A64, 0x27541, 0x28C69,
    ]
    static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
        [6, 30, 54], [6, 32, 58], [6, 34, 62], [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74],
        [6, 30, 54, 78], [6, 30, 56, 82], [6, 30, 58, 86], [6, 34, 62, 90], [6, 28, 50, 72, 94],
        [6, 26, 50, 74, 98], [6, 30, 54, 78, 102], [6, 28, 54, 80, 106], [6, 32, 58, 84, 110],
        [6, 30, 58, 86, 114], [6, 34, 62, 90, 118], [6, 26, 50, 74, 98, 122], [6, 30, 54, 78, 102, 126],
        [6, 26, 52, 78, 104, 130], [6, 30, 56, 82, 108, 134], [6, 34, 60, 86, 112, 138],
        [6, 30, 58, 86, 114, 142], [6, 34, 62, 90, 118, 146], [6, 30, 54, 78, 102, 126, 150],
        [6, 24, 50, 76, 102, 128, 154], [6, 28, 54, 80, 106, 132, 158], [6, 32, 58, 84, 110, 136, 162],
        [6, 26, 54, 82, 110, 138, 166], [6, 30, 58, 86, 114, 142, 170],
    ]

    static func read(_ code: QRCode) throws(Failure) -> Decoded {
        let size = code.size
        let version = (size - 17) / 4
        // Format information, both copies, most significant bit first.
        var first = 0
        var second = 0
        let firstCoordinates = (0...5).map { (8, $0) } + [(8, 7), (8, 8), (7, 8)] + (9..<15).map { (14 - $0, 8) }
        let secondCoordinates = (0..<8).map { (size - 1 - $0, 8) } + (8..<15).map { (8, size - 15 + $0) }
        for (index, (x, y)) in firstCoordinates.enumerated() where code[x, y] { first |= 1 << index }
        for (index, (x, y)) in secondCoordinates.enumerated() where code[x, y] { second |= 1 << index }
        guard first == second, let entry = formatStrings.firstIndex(where: { Int($0, radix: 2) == first }) else {
            throw .format
        }
        let level = [QRCode.ErrorCorrection.low, .medium, .quartile, .high][entry / 8]
        let mask = entry % 8
        guard code[8, size - 8] else { throw .format }

        var function = [[Bool]](repeating: [Bool](repeating: false, count: size), count: size)
        func reserve(_ x0: Int, _ y0: Int, _ width: Int, _ height: Int) {
            for y in y0..<(y0 + height) { for x in x0..<(x0 + width) { function[y][x] = true } }
        }
        reserve(0, 0, 9, 9)
        reserve(size - 8, 0, 8, 9)
        reserve(0, size - 8, 9, 8)
        reserve(6, 0, 1, size)
        reserve(0, 6, size, 1)
        let centres = alignment[version - 1]
        for (row, cy) in centres.enumerated() {
            for (column, cx) in centres.enumerated() {
                let corner =
                    (row == 0 && column == 0) || (row == 0 && column == centres.count - 1)
                    || (row == centres.count - 1 && column == 0)
                if !corner { reserve(cx - 2, cy - 2, 5, 5) }
            }
        }
        if version >= 7 {
            var topRight = 0
            var bottomLeft = 0
            for index in 0..<18 {
                if code[size - 11 + index % 3, index / 3] { topRight |= 1 << index }
                if code[index / 3, size - 11 + index % 3] { bottomLeft |= 1 << index }
            }
            guard topRight == bottomLeft, topRight == versionStrings[version - 7] else { throw .version }
            reserve(size - 11, 0, 3, 6)
            reserve(0, size - 11, 6, 3)
        }

        var bits: [Bool] = []
        var right = size - 1
        var upward = true
        while right > 0 {
            if right == 6 { right -= 1 }
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !function[y][x] {
                    let i = y
                    let j = x
                    let flip: Bool
                    switch mask {
                    case 0: flip = (i + j) % 2 == 0
                    case 1: flip = i % 2 == 0
                    case 2: flip = j % 3 == 0
                    case 3: flip = (i + j) % 3 == 0
                    case 4: flip = (i / 2 + j / 3) % 2 == 0
                    case 5: flip = (i * j) % 2 + (i * j) % 3 == 0
                    case 6: flip = ((i * j) % 2 + (i * j) % 3) % 2 == 0
                    default: flip = ((i + j) % 2 + (i * j) % 3) % 2 == 0
                    }
                    bits.append(code[x, y] != flip)
                }
            }
            upward.toggle()
            right -= 2
        }
        var codewords: [UInt8] = []
        for start in stride(from: 0, to: bits.count - 7, by: 8) {
            codewords.append(bits[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
        }

        // De-interleave into blocks and check every syndrome.
        let dataLengths = QRCodeTable.blockDataLengths(version: version, level: level)
        let parity = QRCodeTable.parityPerBlock(version: version, level: level)
        var blocks = dataLengths.map { _ in [UInt8]() }
        var cursor = 0
        for column in 0..<(dataLengths.max() ?? 0) {
            for block in blocks.indices where column < dataLengths[block] {
                blocks[block].append(codewords[cursor])
                cursor += 1
            }
        }
        for _ in 0..<parity {
            for block in blocks.indices {
                blocks[block].append(codewords[cursor])
                cursor += 1
            }
        }
        for (index, block) in blocks.enumerated() {
            for power in 0..<parity {
                let alpha = gfPower(2, power)
                var syndrome: UInt8 = 0
                for codeword in block { syndrome = gfMultiply(syndrome, alpha) ^ codeword }
                guard syndrome == 0 else { throw .syndrome(block: index) }
            }
        }

        // Parse the single segment.
        let stream = blocks.enumerated().flatMap { index, block in block.prefix(dataLengths[index]) }
        var position = 0
        func take(_ width: Int) throws(Failure) -> Int {
            guard position + width <= stream.count * 8 else { throw .stream("ran out of bits") }
            var value = 0
            for _ in 0..<width {
                value = value << 1 | Int(stream[position / 8] >> (7 - UInt8(position % 8)) & 1)
                position += 1
            }
            return value
        }
        let mode = try take(4)
        let band = version <= 9 ? 0 : version <= 26 ? 1 : 2
        var payload: [UInt8] = []
        let charset = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)
        switch mode {
        case 0b0001:
            var count = try take([10, 12, 14][band])
            while count > 0 {
                let digits = min(3, count)
                let value = try take(digits * 3 + 1)
                payload += Array(String(value).leftPadded(to: digits).utf8)
                count -= digits
            }
        case 0b0010:
            var count = try take([9, 11, 13][band])
            while count >= 2 {
                let value = try take(11)
                payload += [charset[value / 45], charset[value % 45]]
                count -= 2
            }
            if count == 1 { payload.append(charset[try take(6)]) }
        case 0b0100:
            let count = try take([8, 16, 16][band])
            for _ in 0..<count { payload.append(UInt8(try take(8))) }
        default:
            throw .stream("mode \(mode)")
        }
        return Decoded(level: level, mask: mask, mode: mode, payload: payload)
    }

    /// Carry-less multiplication modulo x⁸+x⁴+x³+x²+1, bit by bit.
    static func gfMultiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var result: UInt8 = 0
        var a = a
        var b = b
        while b != 0 {
            if b & 1 != 0 { result ^= a }
            a = (a << 1) ^ (a & 0x80 != 0 ? 0x1D : 0)
            b >>= 1
        }
        return result
    }

    static func gfPower(_ base: UInt8, _ exponent: Int) -> UInt8 {
        (0..<exponent).reduce(1) { value, _ in gfMultiply(value, base) }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
