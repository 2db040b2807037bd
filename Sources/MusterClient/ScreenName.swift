import MusterCore

/// A name from data made fit for the public screen: sanitized, cut to a number of terminal cells, and,
/// when it holds right-to-left letters, wrapped in a first-strong isolate (U+2068 … U+2069).
///
/// The isolate is what keeps "Found: ‏שרה כ." from reordering the words around it; it is added here,
/// by the screen, after ``TerminalText/sanitize(_:maxCharacters:)`` has removed every bidi control
/// the data carried, so a name can never open an isolate or override it does not close.
public enum ScreenName {
    public static let firstStrongIsolate: Unicode.Scalar = "\u{2068}"
    public static let popDirectionalIsolate: Unicode.Scalar = "\u{2069}"

    /// The name as the screen prints it, at most `cells` wide (not counting the isolates).
    public static func display(_ raw: String, maxCells: Int = 40) -> String {
        let clean = TerminalCells.truncate(TerminalText.sanitize(raw).trimmingWhitespace(), toCells: maxCells)
        guard clean.unicodeScalars.contains(where: isRightToLeft) else { return clean }
        return String(firstStrongIsolate) + clean + String(popDirectionalIsolate)
    }

    /// Strong right-to-left letters: Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic and the
    /// Hebrew and Arabic presentation forms.
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}
