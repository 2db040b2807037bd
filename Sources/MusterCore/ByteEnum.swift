/// An enumeration encoded as its one-byte raw value, which the signed encoding fixes forever.
///
/// Decoding refuses a byte that names no case, saying which enumeration it was (``wireName``).
public protocol ByteEnum: ByteCodable, RawRepresentable<UInt8> {
    /// What the byte names, for the decoding error ("unknown door reason 9").
    static var wireName: String { get }
}

extension ByteEnum {
    public func encode(into writer: inout ByteWriter) { writer.write(rawValue) }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let start = reader.offset
        let raw = try reader.readUInt8()
        guard let value = Self(rawValue: raw) else { throw .invalidValue(at: start, "unknown \(Self.wireName) \(raw)") }
        self = value
    }
}
