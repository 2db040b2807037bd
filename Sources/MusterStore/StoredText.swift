import MusterCore

/// How text from a delta is stored in the materialized tables: sanitized (no controls, escapes or
/// bidi overrides, one line) and bounded, whoever wrote it.
///
/// A pure function of the delta, so every replica stores the same bytes and the digest agrees; a
/// front end that forgets to sanitize still cannot be driven by a name or a note.
enum StoredText {
    /// Longest name, company, email, ticket or status, in Unicode scalars.
    static let maxFieldCharacters = Limits.maxStoredFieldCharacters

    static func field(_ text: String) -> String {
        TerminalText.sanitize(text, maxCharacters: maxFieldCharacters)
    }

    static func note(_ text: String) -> String {
        TerminalText.sanitize(text, maxCharacters: Limits.maxNoteCharacters)
    }
}
