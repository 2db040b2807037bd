import Foundation

/// The form of a person's name that the organizer's name search compares: case, accents and
/// width folded, runs of whitespace made one space ("  Émile  ZOLA " → "emile zola").
///
/// Stored beside the name (`attendee.first_key`, `attendee.last_key`, each indexed) so a search is
/// an index range scan, not a pass over the whole campaign.
enum NameKey {
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The smallest string above every key that starts with `prefix` (SQLite compares TEXT as
    /// UTF-8 bytes, and no character encodes above U+10FFFF).
    static func upperBound(_ prefix: String) -> String { prefix + "\u{10FFFF}" }
}
