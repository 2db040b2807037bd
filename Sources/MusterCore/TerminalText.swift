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
        var scalars = text.unicodeScalars.makeIterator()
        while count < maxCharacters, let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                // Drop the whole escape sequence, not just the ESC, so "\u{1B}[31mEve" shows as "Eve".
                skipEscape(&scalars)
            case 0x9B:
                skipControlSequence(&scalars)
            case 0x0A, 0x0D, 0x09:
                out.append(" ")
                count += 1
            default:
                guard !isUnsafe(scalar) else { continue }
                out.append(scalar)
                count += 1
            }
        }
        return String(out)
    }

    /// After ESC: CSI (`[`), OSC/DCS/APC/PM/SOS strings (`]`, `P`, `_`, `^`, `X`) or a two-character sequence.
    private static func skipEscape(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[": skipControlSequence(&scalars)
        case "]", "P", "_", "^", "X": skipString(&scalars)
        default: return
        }
    }

    /// CSI parameters and intermediates up to the final byte (0x40–0x7E).
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) || scalar.value > 0x7E { return }
        }
    }

    /// A string sequence ends with BEL, ST (ESC \\) or C1 ST (0x9C).
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }

    /// Whether `scalar` must never reach a terminal raw: C0 and C1 controls, DEL, and the bidirectional and
    /// invisible formatting characters (marks, embeddings, overrides, isolates, line and paragraph separators).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (includes CSI 0x9B)
        // Bidirectional marks, embeddings, overrides and isolates; invisible formatting.
        case 0x061C, 0x200B, 0x200E, 0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF, 0xFFF9...0xFFFB: true
        default: false
        }
    }
}
