/// Why bytes could not be decoded into a Muster value. Offsets are byte positions in the input.
public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    case truncated(at: Int)
    case invalidValue(at: Int, String)
    case trailingBytes(count: Int)
    case unsupportedVersion(UInt8)
    case unknownKind(UInt8)

    public var description: String {
        switch self {
        case .truncated(let offset): "input ends early at byte \(offset)"
        case .invalidValue(let offset, let why): "invalid value at byte \(offset): \(why)"
        case .trailingBytes(let count): "\(count) unexpected bytes after the end of the value"
        case .unsupportedVersion(let version): "unsupported encoding version \(version)"
        case .unknownKind(let kind): "unknown delta kind \(kind)"
        }
    }
}
