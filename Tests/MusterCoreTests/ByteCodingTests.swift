import MusterTestSupport
import Testing

@testable import MusterCore

@Suite("ByteWriter / ByteReader")
struct ByteCodingTests {
    @Test func fixedWidthIntegersAreBigEndianAndRoundTrip() throws {
        var writer = ByteWriter()
        writer.write(UInt8(0xAB))
        writer.write(UInt16(0x1234))
        writer.write(UInt64(0x0102_0304_0506_0708))
        writer.write(Int64(-2))
        writer.write(true)
        writer.write(false)
        #expect(
            writer.bytes == [
                0xAB, 0x12, 0x34, 1, 2, 3, 4, 5, 6, 7, 8,
                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 1, 0,
            ]
        )

        var reader = ByteReader(writer.bytes)
        #expect(try reader.readUInt8() == 0xAB)
        #expect(try reader.readUInt16() == 0x1234)
        #expect(try reader.readUInt64() == 0x0102_0304_0506_0708)
        #expect(try reader.readInt64() == -2)
        #expect(try reader.readBool() == true)
        #expect(try reader.readBool() == false)
        #expect(reader.isAtEnd)
        try reader.expectEnd()
    }

    static let varintCases: [(UInt64, [UInt8])] = [
        (0, [0x00]),
        (1, [0x01]),
        (127, [0x7F]),
        (128, [0x80, 0x01]),
        (300, [0xAC, 0x02]),
        (16_383, [0xFF, 0x7F]),
        (16_384, [0x80, 0x80, 0x01]),
        (UInt64(UInt32.max), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    @Test(arguments: varintCases)
    func varintEdgeValues(value: UInt64, encoded: [UInt8]) throws {
        var writer = ByteWriter()
        writer.writeVarint(value)
        #expect(writer.bytes == encoded)
        var reader = ByteReader(encoded)
        #expect(try reader.readVarint() == value)
        #expect(reader.isAtEnd)
    }

    @Test func varintPowersOfTwoRoundTrip() throws {
        for shift in 0..<64 {
            for value in [UInt64(1) << shift, (UInt64(1) << shift) &- 1, (UInt64(1) << shift) + 1] {
                var writer = ByteWriter()
                writer.writeVarint(value)
                var reader = ByteReader(writer.bytes)
                #expect(try reader.readVarint() == value)
                #expect(reader.isAtEnd)
            }
        }
    }

    @Test(arguments: [
        [UInt8(0x80), 0x00],  // 0 written in two bytes
        [0xFF, 0x00],  // 127 with a trailing zero group
        [0x81, 0x80, 0x00],  // 1 padded to three bytes
    ])
    func overlongVarintIsRejected(bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard case .invalidValue(at: 0, _) = thrownError({ () throws(DecodeError) in try reader.readVarint() }) else {
            Issue.record("overlong varint \(bytes) was accepted")
            return
        }
    }

    @Test func varintBeyondSixtyFourBitsIsRejected() {
        // Ten bytes whose last group carries more than the one bit that fits in a UInt64.
        var overflow = ByteReader([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02])
        #expect(thrownError({ () throws(DecodeError) in try overflow.readVarint() }) != nil)
        // Eleven bytes: too long whatever the values.
        var tooLong = ByteReader([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x01])
        #expect(thrownError({ () throws(DecodeError) in try tooLong.readVarint() }) != nil)
    }

    @Test func truncatedInputIsRejected() {
        var noByte = ByteReader([])
        #expect(thrownError({ () throws(DecodeError) in try noByte.readUInt8() }) == .truncated(at: 0))
        var shortU16 = ByteReader([0x01])
        #expect(thrownError({ () throws(DecodeError) in try shortU16.readUInt16() }) == .truncated(at: 0))
        var shortU64 = ByteReader([1, 2, 3, 4, 5, 6, 7])
        #expect(thrownError({ () throws(DecodeError) in try shortU64.readUInt64() }) == .truncated(at: 0))
        var unfinishedVarint = ByteReader([0x80, 0x80])
        #expect(thrownError({ () throws(DecodeError) in try unfinishedVarint.readVarint() }) == .truncated(at: 2))
        var shortBlob = ByteReader([0x05, 0x61, 0x62])
        #expect(
            thrownError({ () throws(DecodeError) in try shortBlob.readBlob(maxLength: 100) }) == .truncated(at: 1)
        )
        var shortRaw = ByteReader([1, 2, 3])
        #expect(thrownError({ () throws(DecodeError) in try shortRaw.readRaw(count: 4) }) == .truncated(at: 0))
    }

    @Test func failedReadDoesNotConsumeFixedWidthInput() throws {
        var reader = ByteReader([0x01, 0x02, 0x03])
        #expect(thrownError({ () throws(DecodeError) in try reader.readUInt64() }) != nil)
        #expect(reader.offset == 0)
        #expect(try reader.readUInt16() == 0x0102)
    }

    @Test func blobLongerThanTheLimitIsRejectedBeforeReading() throws {
        var writer = ByteWriter()
        writer.writeBlob([UInt8](repeating: 7, count: 10))
        var reader = ByteReader(writer.bytes)
        guard
            case .invalidValue(at: 0, _) = thrownError({ () throws(DecodeError) in try reader.readBlob(maxLength: 9) })
        else {
            Issue.record("a blob over the limit was accepted")
            return
        }
        var exact = ByteReader(writer.bytes)
        #expect(try exact.readBlob(maxLength: 10) == [UInt8](repeating: 7, count: 10))
    }

    @Test func hugeDeclaredLengthIsRejectedWithoutAllocating() {
        // A length prefix of UInt64.max with nothing behind it.
        var writer = ByteWriter()
        writer.writeVarint(UInt64.max)
        var reader = ByteReader(writer.bytes)
        #expect(thrownError({ () throws(DecodeError) in try reader.readBlob(maxLength: Int.max) }) != nil)
        var string = ByteReader(writer.bytes)
        #expect(thrownError({ () throws(DecodeError) in try string.readString() }) != nil)
    }

    @Test func trailingBytesAreRejected() throws {
        var writer = ByteWriter()
        writer.write("hi")
        writer.write(UInt8(0))
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readString() == "hi")
        #expect(reader.remaining == 1)
        #expect(thrownError({ () throws(DecodeError) in try reader.expectEnd() }) == .trailingBytes(count: 1))
    }

    @Test func stringsRoundTripIncludingUnicodeAndEmpty() throws {
        let values = ["", "Ada Lovelace", "Zoë Ångström", "李小龙", "🎟️ ticket", String(repeating: "x", count: 4_096)]
        var writer = ByteWriter()
        for value in values { writer.write(value) }
        writer.write(String?.none)
        writer.write(String?.some("Österreich"))
        writer.write(Int64?.none)
        writer.write(Int64?.some(-1_700_000_000_000))
        var reader = ByteReader(writer.bytes)
        for value in values { #expect(try reader.readString() == value) }
        #expect(try reader.readOptionalString() == nil)
        #expect(try reader.readOptionalString() == "Österreich")
        #expect(try reader.readOptionalInt64() == nil)
        #expect(try reader.readOptionalInt64() == -1_700_000_000_000)
        try reader.expectEnd()
    }

    @Test func stringOverTheFieldLimitIsRejected() {
        var writer = ByteWriter()
        writer.write(String(repeating: "x", count: Limits.maxFieldBytes + 1))
        var reader = ByteReader(writer.bytes)
        #expect(thrownError({ () throws(DecodeError) in try reader.readString() }) != nil)
    }

    @Test(arguments: [
        [UInt8(0xFF)],  // never valid in UTF-8
        [0xC3],  // lead byte without its continuation
        [0x80],  // lone continuation byte
        [0xC0, 0xAF],  // overlong encoding of "/"
        [0xED, 0xA0, 0x80],  // UTF-16 surrogate D800
        [0x61, 0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
    ])
    func invalidUTF8IsRejected(raw: [UInt8]) {
        var writer = ByteWriter()
        writer.writeBlob(raw)
        var reader = ByteReader(writer.bytes)
        guard case .invalidValue(at: 0, _) = thrownError({ () throws(DecodeError) in try reader.readString() }) else {
            Issue.record("invalid UTF-8 \(raw) was accepted as a string")
            return
        }
    }

    /// The reader decodes with the repairing initializer and compares (it is faster than the
    /// validating one): it must accept exactly what `String(validating:as:)` accepts, including a
    /// replacement character that was in the bytes themselves.
    @Test func stringsAreAcceptedExactlyWhenTheyAreValidUTF8() throws {
        var random = SplitMix64(seed: 20_261_129)
        // Bytes from the ranges UTF-8 cares about: ASCII, continuations, lead bytes of each
        // length, the never-valid bytes, and the replacement character's own bytes.
        let pool: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0xA0, 0xBF, 0xBD, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ]
        var accepted = 0
        for _ in 0..<20_000 {
            let raw = (0..<Int(random.next() % 7)).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            var writer = ByteWriter()
            writer.writeBlob(raw)
            var reader = ByteReader(writer.bytes)
            let read = try? reader.readString()
            let reference = String(validating: raw, as: UTF8.self)
            #expect(read == reference, "\(raw)")
            if read != nil { accepted += 1 }
        }
        #expect(accepted > 1_000, "too few valid strings drawn to say anything: \(accepted)")
        var writer = ByteWriter()
        writer.write("\u{FFFD} stays")
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readString() == "\u{FFFD} stays")
    }

    @Test(arguments: [UInt8(2), 0x80, 0xFF])
    func boolOtherThanZeroOrOneIsRejected(byte: UInt8) {
        var reader = ByteReader([byte])
        guard case .invalidValue(at: 0, _) = thrownError({ () throws(DecodeError) in try reader.readBool() }) else {
            Issue.record("bool byte \(byte) was accepted")
            return
        }
        // The same byte as an optional's presence flag is refused too.
        var optional = ByteReader([byte, 0x00])
        #expect(thrownError({ () throws(DecodeError) in try optional.readOptionalString() }) != nil)
    }
}
