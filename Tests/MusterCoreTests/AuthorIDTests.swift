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
