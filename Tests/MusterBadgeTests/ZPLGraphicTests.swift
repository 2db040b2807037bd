import Foundation
import MusterTestSupport
import Testing

@testable import MusterBadge

/// ZPL for raw Zebra queues: the badge drawn by pango at the printer's resolution, sent as one
/// `^GFA` graphic. The tests read the graphic back out of the ZPL (as a Zebra would) and scan its QR
/// code with zbarimg.
@Suite("ZPLGraphic")
struct ZPLGraphicTests {
    /// The bitmap of the `^GFA` field of a ZPL label, read as the printer reads it.
    static func graphic(in zpl: [UInt8]) throws -> ZPLGraphic {
        let text = String(decoding: zpl, as: UTF8.self)
        guard let start = text.range(of: "^GFA,"),
            let end = text.range(of: "^FS", range: start.upperBound..<text.endIndex)
        else { throw BadgeError(.renderFailed, "no ^GFA field in \(text.prefix(200))") }
        let parts = text[start.upperBound..<end.lowerBound].split(separator: ",", maxSplits: 3)
        guard parts.count == 4, let total = Int(parts[0]), Int(parts[1]) == total, let perRow = Int(parts[2]) else {
            throw BadgeError(.renderFailed, "a malformed ^GFA header")
        }
        let hex = Array(parts[3].utf8)
        guard hex.count == 2 * total, total % perRow == 0 else {
            throw BadgeError(.renderFailed, "^GFA holds \(hex.count) hex digits for \(total) bytes")
        }
        func nibble(_ digit: UInt8) -> UInt8 { digit >= 65 ? digit - 55 : digit - 48 }
        let rows = stride(from: 0, to: hex.count, by: 2).map { nibble(hex[$0]) << 4 | nibble(hex[$0 + 1]) }
        func number(after command: String) -> Int? {
            guard let range = text.range(of: command) else { return nil }
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        let width = number(after: "^PW") ?? 0
        #expect((width + 7) / 8 == perRow, "the label width matches the graphic's rows")
        return ZPLGraphic(widthDots: width, heightDots: total / perRow, rows: rows)
    }

    /// Label width and length in dots at 203 dpi: 62 × 100 mm is 496 × 799 dots.
    @Test func theLabelIsTheBadgeSizeAtThePrintersResolution() throws {
        let rendering = try BadgeRenderer(layout: .standard).render(BadgeRendererTests.polish, as: .zpl)
        let text = String(decoding: rendering.bytes, as: UTF8.self)
        #expect(text.hasPrefix("^XA\n^PW496\n^LL799\n"), "\(text.prefix(80))")
        #expect(text.hasSuffix("^FS\n^PQ1\n^XZ\n"))
        let graphic = try Self.graphic(in: rendering.bytes)
        #expect(graphic.widthDots == 496 && graphic.heightDots == 799)
        #expect(graphic.rows.contains { $0 != 0 }, "something is printed")

        let at300 = try BadgeRenderer(layout: .standard, zplDotsPerInch: 300).render(
            BadgeRendererTests.polish,
            as: .zpl
        )
        #expect(String(decoding: at300.bytes, as: UTF8.self).hasPrefix("^XA\n^PW732\n^LL1181\n"))
    }

    /// A door scanner reads the ticket code off the graphic the Zebra would print (the bitmap
    /// written as a PBM, which is the same 1-bit rows).
    @Test(.enabled(if: ToolRun.available("zbarimg"), "zbarimg (zbar-tools) is not installed"))
    func theQRCodeInTheGraphicScansBack() throws {
        let rendering = try BadgeRenderer(layout: .standard, zplDotsPerInch: 300)
            .render(BadgeRendererTests.polish, as: .zpl)
        let graphic = try Self.graphic(in: rendering.bytes)
        let directory = try TemporaryDirectory("muster-zpl")
        defer { directory.remove() }
        let path = directory.file("badge.pbm")
        try (Data("P4\n\(graphic.widthDots) \(graphic.heightDots)\n".utf8) + Data(graphic.rows))
            .write(to: URL(fileURLWithPath: path))
        let run = try ToolRun.run("zbarimg", ["--quiet", "--raw", "-Sbinary", path])
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(run.output == BadgeRendererTests.polish.code)
    }

    /// Thresholding: dark pixels print, light ones do not; rows are padded to whole bytes.
    @Test func darkPixelsPrintAndRowsArePadded() {
        // 9 × 2 pixels, RGB24 (B, G, R, unused), stride 40: row 0 black at x = 0 and 8, mid-dark grey
        // at x = 1; row 1 light grey everywhere.
        var pixels = [UInt8](repeating: 0xFF, count: 80)
        for x in [0, 8] { pixels.replaceSubrange((4 * x)..<(4 * x + 3), with: [0, 0, 0]) }
        pixels.replaceSubrange(4..<7, with: [100, 100, 100])
        for x in 0..<9 { pixels.replaceSubrange((40 + 4 * x)..<(40 + 4 * x + 3), with: [200, 200, 200]) }
        let graphic = pixels.withUnsafeBytes { ZPLGraphic(rgb24: $0, width: 9, height: 2, stride: 40) }
        #expect(graphic.bytesPerRow == 2)
        #expect(graphic.rows == [0b1100_0000, 0b1000_0000, 0, 0])
        #expect(graphic[0, 0] && graphic[1, 0] && !graphic[2, 0] && graphic[8, 0] && !graphic[0, 1])
        let zpl = String(decoding: graphic.zpl, as: UTF8.self)
        #expect(zpl.contains("^FO0,0^GFA,4,4,2,C0800000^FS"), "\(zpl)")
    }

    @Test func aZPLPreviewPathAndItsJobFormat() throws {
        #expect(try BadgeFormat(path: "badge.ZPL") == .zpl)
        #expect(BadgeFormat.zpl.documentFormat == "application/vnd.cups-raw")
        #expect(BadgeFormat.pdf.documentFormat == "application/pdf")
    }
}
