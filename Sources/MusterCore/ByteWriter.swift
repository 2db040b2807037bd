/// Appends Muster's canonical binary encoding: big-endian fixed-width integers, LEB128 lengths,
/// UTF-8 strings with a length prefix.
///
/// Signatures and hashes are computed over these bytes, so the encoding has exactly one form for
/// every value: no optional padding, no alternative integer widths.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 128) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func write(_ value: UInt8) { bytes.append(value) }

    public mutating func write(_ value: UInt16) { writeBigEndian(value) }

    public mutating func write(_ value: UInt64) { writeBigEndian(value) }

    /// Two's complement, so the same bytes as its bit pattern as a `UInt64`.
    public mutating func write(_ value: Int64) { writeBigEndian(value) }

    /// Any fixed-width integer, most significant byte first.
    public mutating func writeBigEndian(_ value: some FixedWidthInteger) {
        // One append of the value's bytes, not one per byte: every delta, frame and hash input
        // is written through here.
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// Unsigned LEB128, used for lengths.
    public mutating func writeVarint(_ value: UInt64) {
        var rest = value
        repeat {
            var byte = UInt8(rest & 0x7f)
            rest >>= 7
            if rest != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while rest != 0
    }

    /// Fixed-size raw bytes whose length the reader knows in advance (keys, hashes).
    public mutating func writeRaw(_ raw: some Collection<UInt8>) { bytes.append(contentsOf: raw) }

    /// Variable-size bytes with a length prefix.
    public mutating func writeBlob(_ blob: some Collection<UInt8>) {
        writeVarint(UInt64(blob.count))
        bytes.append(contentsOf: blob)
    }

    public mutating func write(_ string: String) { writeBlob(Array(string.utf8)) }

    public mutating func write(_ string: String?) {
        guard let string else { return write(false) }
        write(true)
        write(string)
    }

    public mutating func write(_ value: Int64?) {
        guard let value else { return write(false) }
        write(true)
        write(value)
    }

    /// Several fields in order, each in its own encoding: a payload's field list, written once.
    public mutating func write<each Field: ByteCodable>(_ fields: repeat each Field) {
        repeat (each fields).encode(into: &self)
    }

    /// A varint count, then each element.
    public mutating func writeList(_ elements: [some ByteCodable]) {
        writeVarint(UInt64(elements.count))
        for element in elements { element.encode(into: &self) }
    }
}
