/// What is cut from both ends of a value a person typed, scanned or imported: whitespace (no-break spaces
/// included), control characters, and the byte-order and zero-width marks that registration forms, CRMs,
/// spreadsheets and barcode scanners leave behind. None of them is ever part of a name, an address or a code.
///
/// One rule for imports and for what is typed at the kiosk, so an address that arrived with a stray mark in a
/// CSV is found when the same person types it, and the other way round.
public enum EdgeTrim {
    /// `text` without trimmable characters at either end; `text` itself when there are none.
    public static func trim(_ text: String) -> String {
        // The usual case, printable ASCII at both ends, needs no Unicode property lookup.
        if let first = text.utf8.first, let last = text.utf8.last,
            (0x21...0x7E).contains(first), (0x21...0x7E).contains(last)
        {
            return text
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmable($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isTrimmable($0) }) ?? first
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return text }
        return String(scalars[first...last])
    }

    /// Whitespace, C0/C1 controls, the byte-order mark (U+FEFF) and the zero-width space (U+200B).
    public static func isTrimmable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.value == 0xFEFF || scalar.value == 0x200B
            || scalar.properties.generalCategory == .control
    }
}
