import Foundation
import MusterTestSupport
import Testing

@testable import MusterQR

// The symbols come from libqrencode; these tests check what Muster relies on: the version and size
// the standard gives a payload, the function patterns a scanner looks for, the error for a payload
// no symbol holds, the terminal drawing, and — with zbar, an independent decoder — that a scanner
// reads back exactly the text that was encoded.

@Suite("QRCode: versions, sizes and limits")
struct QRCodeVersionTests {
    /// ISO/IEC 18004 Table 7: the byte capacity of versions 1, 10 and 40 at each level; the largest
    /// payload stays in the version, one byte more needs the next.
    @Test func publishedByteCapacities() throws {
        let expected: [(Int, QRCode.ErrorCorrection, Int)] = [
            (1, .low, 17), (1, .medium, 14), (1, .quartile, 11), (1, .high, 7),
            (10, .low, 271), (10, .medium, 213), (10, .quartile, 151), (10, .high, 119),
        ]
        for (version, level, capacity) in expected {
            let fits = try QRCode([UInt8](repeating: 0x61, count: capacity), errorCorrection: level)
            let over = try QRCode([UInt8](repeating: 0x61, count: capacity + 1), errorCorrection: level)
            #expect(fits.version == version && fits.size == 17 + 4 * version, "\(version)-\(level)")
            #expect(over.version == version + 1, "\(version)-\(level) plus one byte")
        }
    }

    @Test func textPicksDenseModes() throws {
        // 41 digits fill 1-L in numeric mode; as bytes they would need version 3.
        #expect(try QRCode(text: String(repeating: "7", count: 41), errorCorrection: .low).version == 1)
        #expect(try QRCode(text: "HELLO WORLD", errorCorrection: .quartile).version == 1)
        #expect(throws: QRCodeError.empty) { try QRCode(text: "") }
        #expect(try QRCode(text: "nul\u{0}inside").version == 1)
    }

    @Test func overVersion40Throws() throws {
        let largest = try QRCode([UInt8](repeating: 0x7A, count: 2953), errorCorrection: .low)
        #expect(largest.version == 40 && largest.size == 177)
        #expect(throws: QRCodeError.tooLong(bytes: 2954, maximum: 2953, level: .low)) {
            try QRCode([UInt8](repeating: 0x7A, count: 2954), errorCorrection: .low)
        }
        #expect(throws: QRCodeError.tooLong(bytes: 1300, maximum: 1273, level: .high)) {
            try QRCode(text: String(repeating: "z", count: 1300), errorCorrection: .high)
        }
        let message = QRCodeError.tooLong(bytes: 2954, maximum: 2953, level: .low).description
        #expect(message.contains("2954") && message.contains("2953") && message.contains("level L"))
    }

    @Test(arguments: [1, 2, 7, 14, 40])
    func functionPatterns(version: Int) throws {
        let capacities = [1: 14, 2: 26, 7: 122, 14: 362, 40: 2331]
        let code = try QRCode([UInt8](repeating: 0xA5, count: capacities[version]!), errorCorrection: .medium)
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
}

@Suite("QRCode: read back by zbar")
struct QRCodeScanTests {
    /// zbarimg (zbar-tools) decodes a greyscale image of the symbol; what it reads must be the text.
    @Test(
        .enabled(if: ToolRun.available("zbarimg"), "zbarimg (zbar-tools) is not installed"),
        arguments: [
            "MUSTER-7Q4K-22", "31415926535897932384626433832795", "muster://join?kiosk=hall-a&token=3f9a",
            "Zoë Łukasiewicz 王小明 ✓",
        ]
    )
    func roundTrip(text: String) throws {
        let directory = try TemporaryDirectory("muster-qr")
        defer { directory.remove() }
        for level in QRCode.ErrorCorrection.allCases {
            let code = try QRCode(text: text, errorCorrection: level)
            let path = directory.file("code-\(level).pgm")
            try Self.greymap(code).write(to: URL(fileURLWithPath: path))
            let run = try ToolRun.run("zbarimg", ["--quiet", "--raw", "-Sbinary", path])
            #expect(run.status == 0, "\(level): \(run.errorOutput)")
            #expect(run.output == text, "\(level)")
        }
    }

    /// A binary PGM, 4 pixels a module, with the standard's 4-module quiet zone.
    static func greymap(_ code: QRCode) -> Data {
        let scale = 4
        let quiet = 4
        let side = (code.size + 2 * quiet) * scale
        var data = Data("P5\n\(side) \(side)\n255\n".utf8)
        for py in 0..<side {
            for px in 0..<side {
                data.append(code[px / scale - quiet, py / scale - quiet] ? 0 : 255)
            }
        }
        return data
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
