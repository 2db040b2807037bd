/// A QR code symbol (ISO/IEC 18004, Model 2, versions 1–40), ready to draw.
///
/// Kiosk enrollment shows its join request and join bundle as QR codes in the terminal, for a
/// phone to scan, and no QR library can be assumed on an offline kiosk; this type does the whole
/// encoding in Swift. It picks the densest single mode that fits the text (numeric, alphanumeric,
/// else UTF-8 bytes), the smallest version that holds it at the requested error-correction level,
/// and the mask with the lowest penalty.
///
/// ```swift
/// let code = try QRCode(text: joinRequest, errorCorrection: .medium)
/// print(code.terminalText())
/// ```
///
/// ## Topics
/// - ``init(_:errorCorrection:)``
/// - ``init(text:errorCorrection:)``
/// - ``subscript(x:y:)``
/// - ``terminalText(quietZone:darkBackground:)``
public struct QRCode: Sendable, Hashable {
    /// 1–40; the symbol is `17 + 4 × version` modules wide.
    public let version: Int
    /// Modules per side, not counting the quiet zone.
    public let size: Int
    public let errorCorrection: ErrorCorrection
    /// The mask pattern reference 0–7 the penalty rules chose.
    public let mask: Int
    /// Row-major, `true` = dark.
    private let modules: [Bool]

    /// Encodes arbitrary bytes in byte mode.
    ///
    /// - Throws: ``QRCodeError/tooLong(bytes:maximum:level:)`` when even version 40 is too small.
    public init(_ bytes: [UInt8], errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        try self.init(segment: .bytes(bytes), errorCorrection: errorCorrection)
    }

    /// Encodes text: digits-only text in numeric mode, text made only of `0–9 A–Z space $%*+-./:`
    /// in alphanumeric mode, anything else as its UTF-8 bytes.
    ///
    /// - Throws: ``QRCodeError/tooLong(bytes:maximum:level:)`` when even version 40 is too small.
    public init(text: String, errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        try self.init(segment: .text(text), errorCorrection: errorCorrection)
    }

    /// - Parameter forcedMask: skips the penalty evaluation and uses this mask; for checking
    ///   placement against published symbols independently of mask selection.
    init(
        segment: QRCodeSegment,
        errorCorrection level: ErrorCorrection,
        forcedMask: QRCodeMask? = nil
    )
        throws(QRCodeError)
    {
        guard let version = QRCodeEncoder.smallestVersion(for: segment, level: level) else {
            let largest = QRCodeTable.versions.upperBound
            let maximum = QRCodeEncoder.capacity(mode: segment.mode, version: largest, level: level)
            throw .tooLong(bytes: segment.count, maximum: maximum, level: level)
        }
        let data = QRCodeEncoder.dataCodewords(for: segment, version: version, level: level)
        var unmasked = QRCodeMatrix(version: version)
        unmasked.place(codewords: QRCodeEncoder.interleave(data, version: version, level: level))

        func masked(_ mask: QRCodeMask) -> (matrix: QRCodeMatrix, mask: QRCodeMask, penalty: Int) {
            var candidate = unmasked
            candidate.apply(mask)
            candidate.drawFormatInformation(level: level, mask: mask)
            return (candidate, mask, candidate.penalty)
        }
        var chosen = masked(forcedMask ?? QRCodeMask(reference: 0))
        for mask in QRCodeMask.all.dropFirst() where forcedMask == nil {
            let candidate = masked(mask)
            if candidate.penalty < chosen.penalty { chosen = candidate }
        }
        self.version = version
        self.size = chosen.matrix.size
        self.errorCorrection = level
        self.mask = chosen.mask.reference
        self.modules = chosen.matrix.modules
    }

    /// Whether the module in column `x`, row `y` (origin top left, 0..<size) is dark; modules
    /// outside the symbol belong to the quiet zone and are light.
    public subscript(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }
}
