/// One of the eight data mask patterns of ISO/IEC 18004 §7.8.2.
///
/// Masking flips data modules by a fixed pattern so that the symbol avoids large blank areas and
/// shapes a reader could mistake for finder patterns; the encoder tries all eight and keeps the
/// one the penalty rules like best.
struct QRCodeMask: Sendable, Hashable, CustomStringConvertible {
    /// The pattern reference 0–7 written into the format information.
    let reference: Int

    static let all = (0..<8).map(QRCodeMask.init(reference:))

    /// Whether the module in column `x`, row `y` is flipped (the standard's i = row, j = column).
    func flips(x: Int, y: Int) -> Bool {
        switch reference {
        case 0: (y + x) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (y + x) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: (y * x) % 2 + (y * x) % 3 == 0
        case 6: ((y * x) % 2 + (y * x) % 3) % 2 == 0
        default: ((y + x) % 2 + (y * x) % 3) % 2 == 0
        }
    }

    var description: String { "mask \(reference)" }
}
