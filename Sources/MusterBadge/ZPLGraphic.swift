/// A monochrome bitmap as a ZPL II label: `^XA`, the label's width and length in dots, the bitmap
/// as one `^GFA` graphic field at the top left, `^XZ`.
///
/// Why a graphic and not ZPL text fields: Zebra's resident fonts cover Latin, Greek and Cyrillic
/// only, and ZPL has no shaping, so a Chinese or Arabic name would need a font downloaded to every
/// printer and would still print unshaped. Drawing the badge with pango and sending the pixels is
/// what the CUPS Zebra driver does with a PDF too; it makes a raw queue print exactly the preview.
///
/// Rows are packed 8 dots a byte, most significant bit first, 1 = a printed (black) dot, written
/// as hexadecimal; a 62 × 100 mm badge at 203 dpi is about 100 kB of ZPL.
public struct ZPLGraphic: Sendable, Equatable {
    public let widthDots: Int
    public let heightDots: Int
    /// `heightDots` rows of `bytesPerRow` bytes.
    public let rows: [UInt8]

    public var bytesPerRow: Int { (widthDots + 7) / 8 }

    /// Thresholds cairo's RGB24 pixels (`stride` bytes a row, blue-green-red-unused little-endian
    /// words) at half luminance: antialiased edges darker than mid-grey print.
    public init(rgb24 pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int) {
        widthDots = width
        heightDots = height
        let perRow = (width + 7) / 8
        var rows = [UInt8](repeating: 0, count: perRow * height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = y * stride + 4 * x
                let blue = Int(pixels[offset])
                let green = Int(pixels[offset + 1])
                let red = Int(pixels[offset + 2])
                // ITU-R BT.601 luma, in thousandths.
                if red * 299 + green * 587 + blue * 114 < 128_000 {
                    rows[y * perRow + x / 8] |= 0x80 >> UInt8(x % 8)
                }
            }
        }
        self.rows = rows
    }

    public init(widthDots: Int, heightDots: Int, rows: [UInt8]) {
        self.widthDots = widthDots
        self.heightDots = heightDots
        self.rows = rows
    }

    /// Whether the dot at (`x`, `y`) prints.
    public subscript(x: Int, y: Int) -> Bool {
        rows[y * bytesPerRow + x / 8] & (0x80 >> UInt8(x % 8)) != 0
    }

    /// The label: one job, one copy.
    public var zpl: [UInt8] {
        let total = rows.count
        let header = "^XA\n^PW\(widthDots)\n^LL\(heightDots)\n^LH0,0\n^FO0,0^GFA,\(total),\(total),\(bytesPerRow),"
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes = Array(header.utf8)
        bytes.reserveCapacity(bytes.count + 2 * total + 32)
        for byte in rows {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        bytes += Array("^FS\n^PQ1\n^XZ\n".utf8)
        return bytes
    }
}
