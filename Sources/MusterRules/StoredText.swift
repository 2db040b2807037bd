import MusterCore

/// How text from a delta is stored in the materialized tables: sanitized (no controls, escapes or
/// bidi overrides, one line) and bounded, whoever wrote it.
///
/// A pure function of the delta, so every replica stores the same bytes and the digest agrees; a
/// front end that forgets to sanitize still cannot be driven by a name or a note.
package enum StoredText {
    /// Longest name, company, email, ticket or status, in Unicode scalars.
    package static let maxFieldCharacters = Limits.maxStoredFieldCharacters

    package static func field(_ text: String) -> String {
        sanitize(text, maxCharacters: maxFieldCharacters)
    }

    package static func note(_ text: String) -> String {
        sanitize(text, maxCharacters: Limits.maxNoteCharacters)
    }

    /// `TerminalText.sanitize(text, maxCharacters:)`, without rebuilding the text it would return
    /// unchanged. Nearly every field is printable ASCII, and rebuilding one scalar at a time cost
    /// about 5,500 instructions a field, a fifth of a catch-up delta (callgrind, BENCHMARKS.md).
    package static func sanitize(_ text: String, maxCharacters: Int) -> String {
        isPrintableASCII(text, atMost: maxCharacters) ? text : TerminalText.sanitize(text, maxCharacters: maxCharacters)
    }

    /// Whether `text` is at most `maxCharacters` bytes of printable ASCII (0x20–0x7E): no control, no
    /// escape, no line break, nothing `TerminalText` drops or replaces, and one scalar per byte, so
    /// `TerminalText.sanitize` returns it as it is.
    package static func isPrintableASCII(_ text: String, atMost maxCharacters: Int = .max) -> Bool {
        let utf8 = text.utf8
        guard utf8.count <= maxCharacters else { return false }
        let printable = { (byte: UInt8) in byte >= 0x20 && byte <= 0x7E }
        return utf8.withContiguousStorageIfAvailable { $0.allSatisfy(printable) } ?? utf8.allSatisfy(printable)
    }
}
