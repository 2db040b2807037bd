/// The name a public screen may show before a person has confirmed who they are: the first name and
/// the initial of the last name ("Ada L."), never the company, email or ticket.
///
/// Enough for Ada to recognise herself; too little for a stranger typing ticket codes to learn who
/// is at the event. The initial is a whole grapheme, so "Ñ" written as N plus a combining tilde, or
/// a CJK family name, stays one readable character.
public enum MaskedName {
    /// `"Ada L."` for Ada Lovelace; `"L."` when there is no first name; `""` when there is no name.
    /// The result is sanitized for a terminal (no controls, no bidi overrides).
    public static func of(firstName: String, lastName: String) -> String {
        let first = TerminalText.sanitize(firstName, maxCharacters: 60).trimmingWhitespace()
        let last = TerminalText.sanitize(lastName).trimmingWhitespace()
        let initial = last.first.map { "\($0)." } ?? ""
        return [first, initial].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
