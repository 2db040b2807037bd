import MusterCore
import Testing

@testable import MusterRules

/// The stored text's fast path (printable ASCII is returned as it is) must store exactly what
/// `TerminalText.sanitize` stores, or replicas of different versions would disagree on the digest.
@Suite("StoredText")
struct StoredTextTests {
    /// Random text of printable ASCII, controls, escapes, DEL, C1 and bidi characters and other
    /// scalars, at lengths around the cap.
    @Test func fastPathAgreesWithTerminalText() {
        var random = SplitMix64(seed: 20_261_128)
        let odd: [Unicode.Scalar] = [
            "\u{1B}", "\u{9B}", "\u{7F}", "\u{85}", "\t", "\n", "\r", "\u{202E}", "é", "Ω", "😀",
        ]
        for _ in 0..<5_000 {
            let cap = Int(random.next() % 12)
            let length = Int(random.next() % 16)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length {
                let pick = random.next() % 10
                scalars.append(
                    pick < 7
                        ? Unicode.Scalar(UInt8(0x20 + random.next() % 0x5F))
                        : odd[Int(random.next() % UInt64(odd.count))]
                )
            }
            let text = String(scalars)
            #expect(
                StoredText.sanitize(text, maxCharacters: cap) == TerminalText.sanitize(text, maxCharacters: cap),
                "\(text)"
            )
        }
    }

    @Test func printableASCIIIsBoundedByBytes() {
        #expect(StoredText.isPrintableASCII("Ada Lovelace"))
        #expect(StoredText.isPrintableASCII("abc", atMost: 3))
        #expect(!StoredText.isPrintableASCII("abcd", atMost: 3))
        #expect(!StoredText.isPrintableASCII("tab\there"))
        #expect(!StoredText.isPrintableASCII("del\u{7F}"))
        #expect(!StoredText.isPrintableASCII("Zoë"))
        #expect(StoredText.isPrintableASCII(""))
        #expect(
            StoredText.field(String(repeating: "x", count: StoredText.maxFieldCharacters + 1)).count
                == StoredText.maxFieldCharacters
        )
    }
}
