/// Makes text that came from data (names, companies, notes, kiosk names) safe to print on a
/// terminal: no escape sequences, no control characters, no bidirectional overrides.
///
/// A name like `"\u{1B}[2J"` in an imported CSV must not clear the kiosk screen, and a note must not
/// be able to rewrite what the next attendee sees.
public enum TerminalText {
    /// Removes C0/C1 controls, DEL, and bidi/invisible formatting characters; collapses the result
    /// to a single line and caps its length.
    public static func sanitize(_ text: String, maxCharacters: Int = 200) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < maxCharacters else { break }
            if isUnsafe(scalar) {
                if scalar == "\n" || scalar == "\t" || scalar == "\r" {
                    out.append(" ")
                    count += 1
                }
                continue
            }
            out.append(scalar)
            count += 1
        }
        return String(out)
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (includes CSI 0x9B)
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF, 0xFFF9...0xFFFB: true  // bidi, invisible
        default: false
        }
    }
}
