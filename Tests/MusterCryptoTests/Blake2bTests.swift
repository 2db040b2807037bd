import MusterCrypto
import Testing

@Suite("BLAKE2b-256")
struct Blake2bTests {
    /// Expected digests computed with Python: hashlib.blake2b(data, digest_size=32).hexdigest().
    static let knownAnswers: [(input: [UInt8], digest: String)] = [
        ([], "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"),
        (Array("abc".utf8), "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319"),
        (
            Array("The quick brown fox jumps over the lazy dog".utf8),
            "01718cec35cd3d796dd00020e0bfecb473ad23457d063b75eff29c0ffa2e58a9"
        ),
        (Array((0..<1024).map { UInt8($0 % 256) }), "f1551feeb252c7e60bb362205bd1ac2f70b145260a91d41e8c5d0a187549a5f2"),
    ]

    @Test func knownAnswers() {
        for (input, digest) in Self.knownAnswers {
            #expect(CryptoTestKit.hex(Blake2b.hash256(input)) == digest, "input of \(input.count) bytes")
        }
    }

    @Test func nonContiguousCollectionsHashTheSame() {
        let input = Array("abc".utf8)
        #expect(Blake2b.hash256(input.reversed().reversed()) == Blake2b.hash256(input))
        #expect(Blake2b.hash256("abc".utf8) == Blake2b.hash256(input))
    }

    @Test func incrementalEqualsOneShot() {
        for (input, digest) in Self.knownAnswers {
            for split in Set([0, 1, input.count / 3, input.count / 2, input.count]) where split <= input.count {
                var hasher = Blake2bHasher()
                hasher.update(input[..<split])
                hasher.update(input[split...])
                #expect(CryptoTestKit.hex(hasher.finalize()) == digest, "split at \(split)")
            }
            var byteByByte = Blake2bHasher()
            for byte in input { byteByByte.update([byte]) }
            #expect(CryptoTestKit.hex(byteByByte.finalize()) == digest)
        }
    }

    @Test func incrementalStringUpdateIsUTF8() {
        var hasher = Blake2bHasher()
        hasher.update("The quick brown ")
        hasher.update("fox jumps over the lazy dog")
        #expect(
            CryptoTestKit.hex(hasher.finalize()) == "01718cec35cd3d796dd00020e0bfecb473ad23457d063b75eff29c0ffa2e58a9"
        )

        var unicode = Blake2bHasher()
        unicode.update("Zoë ✓")
        #expect(unicode.finalize() == Blake2b.hash256(Array("Zoë ✓".utf8)))
    }

    @Test func unusedHasherIsReleasedCleanly() {
        for _ in 0..<100 {
            var hasher = Blake2bHasher()
            hasher.update("discarded")
        }
    }

    // MARK: Hash chain

    /// h_i = BLAKE2b-256(h_{i-1} || payload_i), h_0 = 32 zero bytes.
    static func chain(_ payloads: [[UInt8]]) -> [[UInt8]] {
        var previous = [UInt8](repeating: 0, count: 32)
        var heads: [[UInt8]] = []
        for payload in payloads {
            var hasher = Blake2bHasher()
            hasher.update(previous)
            hasher.update(payload)
            previous = hasher.finalize()
            heads.append(previous)
        }
        return heads
    }

    /// Index of the first link whose stored head does not match the recomputed one.
    static func firstBrokenLink(payloads: [[UInt8]], heads: [[UInt8]]) -> Int? {
        var previous = [UInt8](repeating: 0, count: 32)
        for (index, payload) in payloads.enumerated() {
            let expected = Blake2b.hash256(previous + payload)
            if expected != heads[index] { return index }
            previous = heads[index]
        }
        return nil
    }

    @Test func hashChainDetectsModifiedMiddleLink() {
        let payloads = (0..<7).map { Array("row \($0): attendee checked in".utf8) }
        let heads = Self.chain(payloads)
        #expect(Self.firstBrokenLink(payloads: payloads, heads: heads) == nil)

        var modified = payloads
        modified[3][0] ^= 0x01
        #expect(Self.firstBrokenLink(payloads: modified, heads: heads) == 3)
        // Recomputing the chain over the modified rows changes every later head, including the final one.
        let recomputed = Self.chain(modified)
        #expect(recomputed[..<3] == heads[..<3])
        for index in 3..<heads.count { #expect(recomputed[index] != heads[index]) }
    }
}
