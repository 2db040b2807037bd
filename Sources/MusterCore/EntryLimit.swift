/// How many times one attendee may enter one zone.
///
/// Counted per zone, because a venue's halls each have their own door: a "once" badge for the
/// keynote hall does not stop its holder from walking through the lobby twice.
public enum EntryLimit: ByteCodable, Sendable, Equatable, CustomStringConvertible {
    /// No limit (the default, and what every lock before door rules means).
    case unlimited
    /// One entry for the whole event.
    case once
    /// At most this many entries per local calendar day (1 or more).
    case perDay(UInt16)

    public var description: String {
        switch self {
        case .unlimited: "unlimited"
        case .once: "once"
        case .perDay(let count): "\(count) per day"
        }
    }

    public func encode(into writer: inout ByteWriter) {
        switch self {
        case .unlimited: writer.write(UInt8(0))
        case .once: writer.write(UInt8(1))
        case .perDay(let count):
            writer.write(UInt8(2))
            writer.write(count)
        }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let offset = reader.offset
        switch try reader.readUInt8() {
        case 0: self = .unlimited
        case 1: self = .once
        case 2:
            let count = try reader.readUInt16()
            // Zero would be a second way to say "closed", which the window already says.
            guard count >= 1 else { throw .invalidValue(at: offset, "entries per day must be at least 1") }
            self = .perDay(count)
        case let tag: throw .invalidValue(at: offset, "unknown entry limit \(tag)")
        }
    }
}
