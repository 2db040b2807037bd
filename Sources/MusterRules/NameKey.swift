import Foundation

/// The form of a person's name that the organizer's name search compares: case, accents and
/// width folded, runs of whitespace made one space ("  Émile  ZOLA " → "emile zola").
///
/// Stored beside the name (`attendee.first_key`, `attendee.last_key`, each indexed) so a search is
/// an index range scan, not a pass over the whole campaign.
package enum NameKey {
    package static func fold(_ text: String) -> String {
        asciiFold(text) ?? unicodeFold(text)
    }

    /// Foundation's folding, for any text.
    package static func unicodeFold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The same result for plain ASCII names (most of them) in one pass over the bytes; nil when
    /// the text has anything else. Foundation's folding was an eighth of a catch-up's instructions.
    package static func asciiFold(_ text: String) -> String? {
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        var space = false
        for byte in text.utf8 {
            switch byte {
            case 0x80...: return nil
            case 0x09...0x0D, 0x20:  // the ASCII characters that are White_Space
                space = !folded.isEmpty
            default:
                if space {
                    folded.append(0x20)
                    space = false
                }
                folded.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
            }
        }
        return String(decoding: folded, as: UTF8.self)
    }

    /// The smallest string above every key that starts with `prefix` (SQLite compares TEXT as
    /// UTF-8 bytes, and no character encodes above U+10FFFF).
    package static func upperBound(_ prefix: String) -> String { prefix + "\u{10FFFF}" }
}
