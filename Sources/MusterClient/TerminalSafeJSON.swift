import Foundation
import MusterCore

/// JSON whose bytes are as safe on a terminal as ``Output/data(_:)`` text, while its values stay exact.
///
/// `JSONEncoder` escapes only C0 controls, so a name holding U+009B (the one-byte CSI) or U+202E (right-to-left
/// override) reached the terminal of whoever ran `muster … --json` and could rewrite or reverse what they read.
/// Every character ``TerminalText`` treats as unsafe (DEL, C1 controls, bidirectional marks, embeddings, overrides
/// and isolates, invisible formatting) is written as a `\uXXXX` escape instead: a JSON parser reads back the same
/// string, a terminal sees only ASCII.
enum TerminalSafeJSON {
    /// `json` with every unsafe character escaped. Only valid inside strings, which is the only place JSON
    /// allows characters other than ASCII punctuation, digits, letters and whitespace.
    static func escape(_ json: Data) -> Data {
        guard json.contains(where: { $0 >= 0x7F }) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in String(decoding: json, as: UTF8.self).unicodeScalars {
            // Below 0x7F: the encoder already escaped C0 inside strings; outside them it is JSON whitespace.
            guard scalar.value >= 0x7F, TerminalText.isUnsafe(scalar) else {
                out.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            for character in "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex {
                out.append(contentsOf: character.unicodeScalars)
            }
        }
        return Data(String(out).utf8)
    }
}
