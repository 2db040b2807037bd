/// How many terminal cells text takes: CJK and other East Asian wide characters take two, combining
/// marks and zero-width characters none, everything else one.
///
/// A name is cut to fit by cells rather than by characters, so "山田太郎" is not allowed twice the room of
/// "Ada", and a cut never separates a letter from its accent (it works on whole graphemes).
public enum TerminalCells {
    /// The width of `text` on a terminal, summed over its graphemes.
    public static func width(of text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// One grapheme: the width of its first visible scalar (combining marks ride on it).
    public static func width(of character: Character) -> Int {
        for scalar in character.unicodeScalars {
            let width = width(of: scalar)
            if width > 0 { return width }
        }
        return 0
    }

    /// `text` cut to at most `cells` cells, with "…" when something was cut.
    public static func truncate(_ text: String, toCells cells: Int) -> String {
        guard width(of: text) > cells else { return text }
        var out = ""
        var used = 0
        for character in text {
            let next = width(of: character)
            if used + next > cells - 1 { break }
            out.append(character)
            used += next
        }
        return out + "…"
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if scalar.value == 0x200B || (0x1160...0x11FF).contains(scalar.value) { return 0 }
        return isWide(scalar.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15, UAX #11), and the emoji presentation blocks.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x2E80...0x303E,
            0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default: false
        }
    }
}
