/// A value with one canonical encoding, which ``ByteWriter`` writes and ``ByteReader`` reads.
///
/// Payloads list their fields once in that order (`writer.write(campaignID, attendeeKey, text)`)
/// and decode them through their own initializer (`try reader.read()` per field), so a payload's
/// codec is its field list, not a copy of the write and read calls.
public protocol ByteCodable {
    func encode(into writer: inout ByteWriter)
    init(from reader: inout ByteReader) throws(DecodeError)
}

extension String: ByteCodable {
    public func encode(into writer: inout ByteWriter) { writer.write(self) }
    /// A string of at most ``Limits/maxFieldBytes``; read a shorter field with `readString(maxLength:)`.
    public init(from reader: inout ByteReader) throws(DecodeError) { self = try reader.readString() }
}

extension Bool: ByteCodable {
    public func encode(into writer: inout ByteWriter) { writer.write(self) }
    public init(from reader: inout ByteReader) throws(DecodeError) { self = try reader.readBool() }
}

/// A fixed-width integer, most significant byte first.
public protocol ByteInteger: ByteCodable, FixedWidthInteger {}

extension ByteInteger {
    public func encode(into writer: inout ByteWriter) { writer.writeBigEndian(self) }
    public init(from reader: inout ByteReader) throws(DecodeError) { self = try reader.readBigEndian() }
}

extension UInt8: ByteInteger {}
extension UInt16: ByteInteger {}
extension UInt64: ByteInteger {}
extension Int64: ByteInteger {}

/// A presence flag (`Bool`) and, when set, the value.
extension Optional: ByteCodable where Wrapped: ByteCodable {
    public func encode(into writer: inout ByteWriter) {
        guard let value = self else { return writer.write(false) }
        writer.write(true)
        value.encode(into: &writer)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        self = try reader.readBool() ? try Wrapped(from: &reader) : nil
    }
}

/// The 32 key bytes, raw.
extension AuthorID: ByteCodable {
    public func encode(into writer: inout ByteWriter) { writer.writeRaw(bytes) }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let start = reader.offset
        guard let author = AuthorID(bytes: try reader.readRaw(count: Self.byteCount)) else {
            throw .invalidValue(at: start, "bad author key")
        }
        self = author
    }
}
