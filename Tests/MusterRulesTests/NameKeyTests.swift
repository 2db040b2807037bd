import MusterCore
import MusterTestSupport
import Testing

@testable import MusterRules

@Suite("NameKey")
struct NameKeyTests {
    @Test func foldsCaseAccentsWidthAndSpaces() {
        #expect(NameKey.fold("  Émile \t ZOLA ") == "emile zola")
        #expect(NameKey.fold("Ｇｒａｃｅ") == "grace")
        #expect(NameKey.fold("O'Brien-Smith") == "o'brien-smith")
        #expect(NameKey.fold(" \n ") == "")
    }

    /// The ASCII fast path gives exactly what Foundation's folding gives, on random ASCII text
    /// (every printable character, tabs, newlines, runs of spaces, and the other controls).
    @Test func asciiFastPathAgreesWithFoundation() {
        var random = SplitMix64(seed: 20_261_122)
        for _ in 0..<5_000 {
            let length = Int(random.next() % 24)
            let bytes = (0..<length).map { _ -> UInt8 in
                let pick = random.next() % 10
                return pick < 2
                    ? [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C, 0x1F][Int(random.next() % 7)] : UInt8(random.next() % 0x80)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(NameKey.asciiFold(text) == NameKey.unicodeFold(text), "\(bytes)")
        }
        #expect(NameKey.asciiFold("Zoë") == nil)
    }
}
