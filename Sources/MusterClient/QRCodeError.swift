/// Why a payload could not be turned into a QR code.
///
/// The only way encoding fails is a payload larger than the biggest symbol (version 40) holds at the
/// requested error-correction level, so the error says how much was asked for and how much would fit:
/// the caller can then pick a lower level or shorten what it prints.
public enum QRCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The payload is `bytes` long but at most `maximum` bytes of this kind (digits, upper-case
    /// alphanumerics or arbitrary bytes) fit in a version 40 symbol at `level`.
    case tooLong(bytes: Int, maximum: Int, level: QRCode.ErrorCorrection)

    public var description: String {
        switch self {
        case .tooLong(let bytes, let maximum, let level):
            "The payload is \(bytes) bytes but a QR code at error-correction level \(level) holds at most "
                + "\(maximum); use a lower level or a shorter payload."
        }
    }
}
