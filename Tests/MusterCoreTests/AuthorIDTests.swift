import Testing

@testable import MusterCore

struct AuthorIDTests {
    /// Keys whose bytes differ at the first, a middle and the last position, and at word edges.
    static let keys: [[UInt8]] = {
        var keys: [[UInt8]] = [[UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xFF, count: 32)]
        for position in [0, 7, 8, 15, 16, 24, 31] {
            for value: UInt8 in [0x01, 0x80, 0xFF] {
                var key = [UInt8](repeating: 0x42, count: 32)
                key[position] = value
                keys.append(key)
            }
        }
        keys.append((0..<32).map { UInt8($0 * 7 & 0xFF) })
        return keys
    }()

    @Test func bytesRoundTrip() throws {
        for key in Self.keys {
            let id = try #require(AuthorID(bytes: key))
            #expect(id.bytes == key)
            #expect(AuthorID(hex: id.hex) == id)
        }
        #expect(AuthorID(bytes: [UInt8](repeating: 1, count: 31)) == nil)
        #expect(AuthorID(bytes: [UInt8](repeating: 1, count: 33)) == nil)
    }

    @Test func orderIsTheBytesOrderAndEqualityIsTheBytes() throws {
        for a in Self.keys {
            for b in Self.keys {
                let (x, y) = (try #require(AuthorID(bytes: a)), try #require(AuthorID(bytes: b)))
                #expect((x < y) == a.lexicographicallyPrecedes(b), "\(x.hex) < \(y.hex)")
                #expect((x == y) == (a == b))
                if a == b { #expect(x.hashValue == y.hashValue) }
            }
        }
    }
}

/// The contiguous fast path and the byte loop make the same author from the same bytes.
@Suite("AuthorID bytes")
struct AuthorIDBytesTests {
    @Test func everyKindOfCollectionGivesTheSameAuthor() throws {
        let bytes = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let fromArray = try #require(AuthorID(bytes: bytes))
        let envelope = [UInt8](repeating: 0xEE, count: 5) + bytes + [1, 2]
        let fromSlice = try #require(AuthorID(bytes: envelope[5..<37]))
        // A collection with no contiguous storage takes the byte loop.
        let fromLazy = try #require(AuthorID(bytes: bytes.lazy.map { $0 }))
        #expect(fromArray == fromSlice)
        #expect(fromArray == fromLazy)
        #expect(fromArray.bytes == bytes)
        #expect(fromSlice.bytes == bytes)
        #expect(AuthorID(bytes: bytes.dropLast()) == nil)
    }
}
