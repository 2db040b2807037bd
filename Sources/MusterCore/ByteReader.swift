/// Reads the encoding that ``ByteWriter`` produces, refusing anything that is not in canonical form.
///
/// Every read is bounds-checked and throws ``DecodeError``; hostile bytes from the network or disk can
/// make decoding fail but never crash or allocate more than the input's size.
public struct ByteReader: Sendable {
    private let bytes: [UInt8]
    public private(set) var offset: Int

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func readUInt8() throws(DecodeError) -> UInt8 { try readBigEndian() }

    public mutating func readUInt16() throws(DecodeError) -> UInt16 { try readBigEndian() }

    public mutating func readUInt64() throws(DecodeError) -> UInt64 { try readBigEndian() }

    public mutating func readInt64() throws(DecodeError) -> Int64 { try readBigEndian() }

    /// Any fixed-width integer, most significant byte first (as ``ByteWriter/writeBigEndian(_:)`` writes it).
    public mutating func readBigEndian<Value: FixedWidthInteger>(
        _: Value.Type = Value.self
    ) throws(DecodeError) -> Value {
        let width = Value.bitWidth / 8
        guard remaining >= width else { throw .truncated(at: offset) }
        var value: Value = 0
        for index in offset..<offset + width { value = value << 8 | Value(truncatingIfNeeded: bytes[index]) }
        offset += width
        return value
    }

    public mutating func readBool() throws(DecodeError) -> Bool {
        let start = offset
        switch try readUInt8() {
        case 0: return false
        case 1: return true
        default: throw .invalidValue(at: start, "boolean must be 0 or 1")
        }
    }

    /// Unsigned LEB128; rejects overlong forms so every value has one encoding.
    public mutating func readVarint() throws(DecodeError) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readUInt8()
            if shift == 63 && byte > 1 { throw .invalidValue(at: start, "varint overflows 64 bits") }
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 {
                if byte == 0 && shift > 0 { throw .invalidValue(at: start, "overlong varint") }
                return value
            }
            shift += 7
            if shift > 63 { throw .invalidValue(at: start, "varint too long") }
        }
    }

    public mutating func readRaw(count: Int) throws(DecodeError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw .truncated(at: offset) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    public mutating func readBlob(maxLength: Int) throws(DecodeError) -> [UInt8] {
        let range = try readLengthPrefixed(maxLength: maxLength)
        return Array(bytes[range])
    }

    public mutating func readString(maxLength: Int = Limits.maxFieldBytes) throws(DecodeError) -> String {
        let start = offset
        let range = try readLengthPrefixed(maxLength: maxLength)
        // Decoded straight from the buffer (no intermediate array: decoding is on the catch-up path)
        // with the repairing initializer, whose UTF-8 path is specialized, then compared with the
        // bytes: it replaced something exactly when the bytes were not valid UTF-8, since what it
        // returns always is. `String(validating:as:)` is generic and unspecialized here: looking
        // up its type metadata was 7 % of a catch-up's instructions.
        let valid = bytes.withUnsafeBufferPointer { all -> String? in
            let raw = UnsafeBufferPointer(rebasing: all[range])
            let decoded = String(decoding: raw, as: UTF8.self)
            return decoded.utf8.elementsEqual(raw) ? decoded : nil
        }
        guard let valid else { throw .invalidValue(at: start, "string is not valid UTF-8") }
        return valid
    }

    /// Reads a varint length (at most `maxLength`) and skips that many bytes, returning where they are.
    private mutating func readLengthPrefixed(maxLength: Int) throws(DecodeError) -> Range<Int> {
        let start = offset
        let length = try readVarint()
        guard length <= UInt64(maxLength) else {
            throw .invalidValue(at: start, "length \(length) exceeds the limit of \(maxLength)")
        }
        guard UInt64(remaining) >= length else { throw .truncated(at: offset) }
        defer { offset += Int(length) }
        return offset..<offset + Int(length)
    }

    public mutating func readOptionalString(maxLength: Int = Limits.maxFieldBytes) throws(DecodeError) -> String? {
        try readBool() ? try readString(maxLength: maxLength) : nil
    }

    public mutating func readOptionalInt64() throws(DecodeError) -> Int64? {
        try readBool() ? try readInt64() : nil
    }

    /// One field in its own encoding, of the type the caller expects.
    public mutating func read<Field: ByteCodable>(_: Field.Type = Field.self) throws(DecodeError) -> Field {
        try Field(from: &self)
    }

    /// A varint element count that must lie in `allowed`; `refusal` says why another count is invalid.
    public mutating func readCount(in allowed: ClosedRange<Int>, _ refusal: String) throws(DecodeError) -> Int {
        let start = offset
        let count = try readVarint()
        guard count >= UInt64(allowed.lowerBound), count <= UInt64(allowed.upperBound) else {
            throw .invalidValue(at: start, refusal)
        }
        return Int(count)
    }

    /// A list written by ``ByteWriter/writeList(_:)`` whose length lies in `allowed`.
    public mutating func readList<Element: ByteCodable>(
        in allowed: ClosedRange<Int>,
        _ refusal: String
    ) throws(DecodeError) -> [Element] {
        let count = try readCount(in: allowed, refusal)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try Element(from: &self)) }
        return elements
    }

    /// A field added to the end of an encoding after it was first signed: nil when the input ends
    /// before it, so every value written before the field existed still decodes alike.
    public mutating func readTail<Field>(
        _ read: (inout ByteReader) throws(DecodeError) -> Field
    ) throws(DecodeError) -> Field? {
        isAtEnd ? nil : try read(&self)
    }

    /// Decoders call this last so trailing garbage makes a delta invalid rather than silently ignored.
    public func expectEnd() throws(DecodeError) {
        guard isAtEnd else { throw .trailingBytes(count: remaining) }
    }
}
