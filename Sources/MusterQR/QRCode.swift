import CQRencode
import Glibc

/// A QR code symbol (ISO/IEC 18004, Model 2, versions 1–40), ready to draw.
///
/// Kiosk enrollment shows its join request and join bundle as QR codes in the terminal, the kiosk
/// screen shows codes for a phone, and a badge carries the ticket code as a QR for the door
/// scanner. The symbol comes from libqrencode (Debian's `libqrencode`), a library kept by others
/// and read by every scanner for two decades, rather than an encoder of our own: it picks the
/// densest modes for the text (numeric, alphanumeric, else UTF-8 bytes, mixed where that is
/// shorter), the smallest version that holds it at the requested error-correction level, and the
/// mask with the lowest penalty.
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
    /// Row-major, `true` = dark.
    private let modules: [Bool]

    /// Encodes arbitrary bytes in byte mode (`QRcode_encodeData`).
    ///
    /// - Throws: ``QRCodeError/tooLong(bytes:maximum:level:)`` when even version 40 is too small,
    ///   ``QRCodeError/empty`` for no bytes (libqrencode draws no symbol for nothing).
    public init(_ bytes: [UInt8], errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        guard !bytes.isEmpty else { throw .empty }
        let symbol = bytes.withUnsafeBufferPointer { buffer in
            QRcode_encodeData(Int32(clamping: buffer.count), buffer.baseAddress, 0, errorCorrection.libraryLevel)
        }
        try self.init(symbol: symbol, payloadBytes: bytes.count, level: errorCorrection)
    }

    /// Encodes text (`QRcode_encodeString`, case-sensitive, UTF-8 in byte mode): runs of digits in
    /// numeric mode, runs of `0–9 A–Z space $%*+-./:` in alphanumeric mode, anything else as its
    /// UTF-8 bytes. Text holding a NUL, which a C string cannot carry, is encoded as bytes.
    ///
    /// - Throws: ``QRCodeError/tooLong(bytes:maximum:level:)`` when even version 40 is too small,
    ///   ``QRCodeError/empty`` for empty text.
    public init(text: String, errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        let utf8 = Array(text.utf8)
        if utf8.isEmpty || utf8.contains(0) {
            try self.init(utf8, errorCorrection: errorCorrection)
            return
        }
        let symbol = QRcode_encodeString(text, 0, errorCorrection.libraryLevel, QR_MODE_8, 1)
        try self.init(symbol: symbol, payloadBytes: utf8.count, level: errorCorrection)
    }

    /// Copies libqrencode's symbol (one byte a module, bit 0 = dark) into Swift and frees it.
    private init(
        symbol: UnsafeMutablePointer<CQRencode.QRcode>?,
        payloadBytes: Int,
        level: ErrorCorrection
    )
        throws(QRCodeError)
    {
        guard let symbol else {
            let cause = errno
            if cause == ERANGE {
                throw .tooLong(bytes: payloadBytes, maximum: level.maximumBytes, level: level)
            }
            throw .encoderFailed(errno: cause)
        }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
        self.version = Int(symbol.pointee.version)
        self.size = width
        self.errorCorrection = level
        self.modules = data.map { $0 & 1 == 1 }
    }

    /// Whether the module in column `x`, row `y` (origin top left, 0..<size) is dark; modules
    /// outside the symbol belong to the quiet zone and are light.
    public subscript(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }
}
