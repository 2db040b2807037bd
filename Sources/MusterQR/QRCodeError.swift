/// Why a payload could not be turned into a QR code.
///
/// Encoding fails in practice only when the payload is larger than the biggest symbol (version 40)
/// holds at the requested level, so that error says how much was asked for and how much would fit:
/// the caller can then pick a lower level or shorten what it prints. Anything else libqrencode
/// reports (out of memory) carries its `errno`.
public enum QRCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The payload is `bytes` long but at most `maximum` bytes fit in a version 40 symbol at
    /// `level` (in byte mode; digits and upper-case text pack denser, so a longer text may fit).
    case tooLong(bytes: Int, maximum: Int, level: QRCode.ErrorCorrection)
    /// There is nothing to encode: a QR code of no data scans as nothing, so none is drawn.
    case empty
    /// libqrencode returned no symbol for another reason; `errno` is what it set.
    case encoderFailed(errno: Int32)

    public var description: String {
        switch self {
        case .tooLong(let bytes, let maximum, let level):
            "The payload is \(bytes) bytes but a QR code at error-correction level \(level) holds at most "
                + "\(maximum) bytes; use a lower level or a shorter payload."
        case .empty:
            "There is nothing to encode in a QR code."
        case .encoderFailed(let code):
            "libqrencode could not encode the payload (errno \(code))."
        }
    }
}
