import Foundation
import MusterCore
import Testing

@testable import MusterClient

/// `--json` output reaches a terminal as often as a script: C1 and bidirectional controls in data are escaped,
/// and a JSON parser still reads back exactly what was stored.
@Suite("Terminal-safe JSON")
struct TerminalSafeJSONTests {
    struct Person: Codable, Equatable {
        let firstName: String
        let company: String
    }

    /// Every control the issue names: C1 (U+0080–U+009F, CSI U+009B among them), the bidirectional embeddings and
    /// overrides (U+202A–U+202E), isolates (U+2066–U+2069), marks (U+200E, U+200F) and the Arabic letter mark.
    static let hostile: [Unicode.Scalar] =
        (0x80...0x9F).map { Unicode.Scalar($0)! } + (0x202A...0x202E).map { Unicode.Scalar($0)! }
        + (0x2066...0x2069).map { Unicode.Scalar($0)! } + [0x200E, 0x200F, 0x061C, 0x7F].map { Unicode.Scalar($0)! }

    @Test("every C1 and bidi control comes out as a \\u escape, and parses back to the same string")
    func controlsAreEscapedAndRoundTrip() throws {
        for scalar in Self.hostile {
            let name = "Eve" + String(Character(scalar)) + "31mMallory"
            let person = Person(firstName: name, company: "\u{202E}gnp.exe")
            let data = try Output.jsonData(person)
            let text = String(decoding: data, as: UTF8.self)
            #expect(
                !text.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" && $0 != " " },
                "U+\(String(scalar.value, radix: 16)) reached the output raw"
            )
            #expect(text.contains(String(format: "\\u%04x", scalar.value)), "\(text)")
            #expect(text.contains("\\u202e"))
            #expect(try JSONDecoder().decode(Person.self, from: data) == person, "the value is unchanged")
        }
    }

    @Test func csiByteIsEscaped() throws {
        let data = try Output.jsonData(Person(firstName: "\u{9B}2J", company: "ok"))
        #expect(String(decoding: data, as: UTF8.self).contains("\"\\u009b2J\""))
        #expect(!data.contains(0xC2), "no UTF-8 lead byte of a C1 control")
    }

    @Test func ordinaryTextIsLeftAlone() throws {
        let person = Person(firstName: "José Ünal 李雷 🇫🇷", company: "Acme \"Q\"")
        let data = try Output.jsonData(person)
        #expect(String(decoding: data, as: UTF8.self).contains("José Ünal 李雷 🇫🇷"))
        #expect(try JSONDecoder().decode(Person.self, from: data) == person)
    }
}
