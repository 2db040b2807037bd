import Testing

@testable import MusterCore

@Suite("TerminalText")
struct TerminalTextTests {
    @Test func removesWholeEscapeSequences() {
        #expect(TerminalText.sanitize("\u{1B}[2JAda") == "Ada")  // clear screen
        #expect(TerminalText.sanitize("\u{1B}[31;1mEve\u{1B}[0m") == "Eve")  // colours
        #expect(TerminalText.sanitize("\u{1B}]0;owned\u{07}Ada") == "Ada")  // window title (OSC ... BEL)
        // A hyperlink (OSC 8) keeps only its text.
        #expect(TerminalText.sanitize("\u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\") == "link")
        #expect(TerminalText.sanitize("A\u{9B}31mB") == "AB")  // 8-bit CSI
        #expect(TerminalText.sanitize("bell\u{07}") == "bell")
        #expect(TerminalText.sanitize("del\u{7F}ete") == "delete")
        #expect(TerminalText.sanitize("nul\u{00}byte") == "nulbyte")
        for hostile in ["\u{1B}[2J", "x\u{1B}", "\u{1B}[", "\u{1B}]unterminated", "\u{9B}", "\u{1B}P+q\u{9C}"] {
            let clean = TerminalText.sanitize(hostile)
            #expect(!clean.unicodeScalars.contains { TerminalText.isUnsafe($0) }, "\(hostile.debugDescription)")
        }
    }

    @Test func removesEveryC0AndC1Control() {
        var text = "x"
        for value in Array(0x00...0x08) + Array(0x0B...0x0C) + Array(0x0E...0x1F) + Array(0x7F...0x9F) {
            text.unicodeScalars.append(Unicode.Scalar(UInt32(value))!)
        }
        text += "y"
        #expect(TerminalText.sanitize(text) == "xy")
    }

    @Test func removesBidiOverridesAndInvisibleFormatting() {
        #expect(TerminalText.sanitize("abc\u{202E}fed") == "abcfed")
        #expect(TerminalText.sanitize("\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}x") == "x")
        #expect(TerminalText.sanitize("zero\u{200B}width\u{200F}\u{FEFF}") == "zerowidth")
        #expect(TerminalText.sanitize("line\u{2028}sep\u{2029}") == "linesep")
    }

    @Test func lineBreaksAndTabsBecomeSpaces() {
        #expect(TerminalText.sanitize("Ada\nLovelace") == "Ada Lovelace")
        #expect(TerminalText.sanitize("a\r\nb\tc") == "a  b c")
        #expect(!TerminalText.sanitize("one\ntwo\rthree").contains("\n"))
    }

    @Test func keepsAccentsEmojiAndOtherScripts() {
        for text in ["Zoë Ångström", "François Müller-Lüdenscheidt", "李小龙", "Ñandú 🎉👍🏽🇨🇭", "مرحبا", "ü"] {
            #expect(TerminalText.sanitize(text) == text)
        }
        // A combining accent is not a control.
        #expect(TerminalText.sanitize("e\u{0301}") == "e\u{0301}")
    }

    @Test func capsTheLength() {
        #expect(TerminalText.sanitize(String(repeating: "a", count: 500)).count == 200)
        #expect(TerminalText.sanitize("abcdef", maxCharacters: 3) == "abc")
        // Removed characters do not count towards the cap.
        #expect(TerminalText.sanitize("\u{07}\u{00}\u{7F}abc", maxCharacters: 3) == "abc")
    }
}

@Suite("EmailAddress")
struct EmailAddressTests {
    @Test func keyIsTrimmedAndLowercased() {
        #expect(EmailAddress.key("  Ada@Analytical.Example \n") == "ada@analytical.example")
        #expect(EmailAddress.key("\u{00A0}GRACE@navy.example\t") == "grace@navy.example")
        #expect(EmailAddress.key("already@lower.example") == "already@lower.example")
        #expect(EmailAddress.key("   ") == "")
        #expect(EmailAddress.key("Zoë@Example.COM") == "zoë@example.com")
        #expect(EmailAddress.key("A@B.C") == EmailAddress.key(" a@b.c "))
        // What forms, spreadsheets and scanners leave at the ends: a byte-order mark, a zero-width space, a
        // control character. The import and the kiosk used to disagree on these.
        #expect(EmailAddress.key("\u{FEFF}Ada@X.Example") == "ada@x.example")
        #expect(EmailAddress.key("ada@x.example\u{200B}") == "ada@x.example")
        #expect(EmailAddress.key("\u{200B}\u{FEFF} ada@x.example\u{0000}\r\n") == "ada@x.example")
        // Inside the value nothing is removed: such a key is refused by VenuePolicy, not silently rewritten.
        #expect(EmailAddress.key("a\u{200B}da@x.example") == "a\u{200B}da@x.example")
    }

    @Test(arguments: [
        "ada@analytical.example", " Ada@Example.com ", "a@b", "x.y+tag@sub.example.org", "zoë@exämple.de",
    ])
    func plausible(address: String) {
        #expect(EmailAddress.isPlausible(address))
    }

    @Test(arguments: [
        "", "   ", "ada", "@example.com", "ada@", "a@b@c", "ada lovelace@example.com", "ada@exa mple.com",
        "ada\u{1B}[2J@example.com", "ada@example.com\u{202E}", "a\tb@example.com",
    ])
    func implausible(address: String) {
        #expect(!EmailAddress.isPlausible(address))
    }

    @Test func tooLongIsImplausible() {
        let local = String(repeating: "a", count: 64)
        let fits = local + "@" + String(repeating: "b", count: 254 - 65)
        #expect(fits.utf8.count == 254)
        #expect(EmailAddress.isPlausible(fits))
        #expect(!EmailAddress.isPlausible(fits + "b"))
    }
}

@Suite("TicketCode")
struct TicketCodeTests {
    static let crockford = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    @Test func alphabetIsCrockfordBase32() {
        #expect(TicketCode.alphabet.count == 32)
        #expect(Set(TicketCode.alphabet) == Self.crockford)
        for ambiguous in "ILOU" { #expect(!TicketCode.alphabet.contains(ambiguous)) }
    }

    @Test func walkInCodesHaveTheDocumentedShape() {
        var seen = Set<String>()
        for _ in 0..<500 {
            let code = TicketCode.walkIn()
            #expect(code.hasPrefix("W-"))
            #expect(code.count == 10)
            #expect(code.dropFirst(2).allSatisfy { Self.crockford.contains($0) }, "\(code)")
            #expect(TicketCode.normalize(code) == code)
            seen.insert(code)
        }
        // 40 random bits: 500 codes colliding would mean the generator is broken.
        #expect(seen.count > 490)
    }

    @Test func walkInUsesTheGivenGenerator() {
        var a = SplitMix64(seed: 7)
        var b = SplitMix64(seed: 7)
        var c = SplitMix64(seed: 8)
        let first = TicketCode.walkIn(using: &a)
        #expect(first == TicketCode.walkIn(using: &b))
        #expect(first != TicketCode.walkIn(using: &c))
    }

    @Test func normalizeTrimsAndUppercases() {
        #expect(TicketCode.normalize("  w-0123abcd\n") == "W-0123ABCD")
        #expect(TicketCode.normalize("W-0123ABCD") == "W-0123ABCD")
        #expect(TicketCode.normalize("t-0001") == TicketCode.normalize("T-0001 "))
        #expect(TicketCode.normalize("   ") == "")
    }
}
