import Foundation
import MusterCore

/// Normalization of the text that arrives in attendee lists, which is typed by strangers into registration forms
/// and then passes through CRMs and spreadsheets.
enum AttendeeListText {
    /// Longest value accepted in any column the import reads, in bytes of UTF-8 after trimming; keeps badges, the
    /// database and the kiosk sane.
    ///
    /// Bytes, not characters: one grapheme cluster has no upper bound in bytes (a flag is 8, a family emoji 25, a
    /// letter with stacked marks as many as anyone types), so a limit in characters does not bound what is stored
    /// or signed. 1,000 bytes holds 1,000 Latin, 500 Cyrillic or 333 CJK characters, or 125 flags.
    static let maximumFieldBytes = 1_000
    /// RFC 5321 path limit minus the angle brackets, in UTF-8 bytes.
    static let maximumEmailLength = 254

    /// Removes surrounding whitespace, including no-break spaces and stray byte-order or zero-width marks
    /// (``EdgeTrim``, the rule kiosks apply to what is typed).
    static func trim(_ text: String) -> String { EdgeTrim.trim(text) }

    /// Trims, turns line breaks and tabs into spaces, drops other control and bidirectional-override characters,
    /// and collapses runs of spaces, so a name shows on one line in the kiosk and on a badge exactly as it reads.
    /// Letters, marks and emoji of any script are kept.
    static func clean(_ text: String) -> String {
        if isTidyASCII(text) { return trim(text) }
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        // Whole escape sequences go, not just their ESC: "\u{1B}[31mEve" is stored as "Eve".
        let unescaped = TerminalText.sanitize(text, maxCharacters: Int.max)
        for scalar in unescaped.unicodeScalars {
            if scalar.properties.isWhitespace || isLineOrTabControl(scalar) {
                pendingSpace = true
                continue
            }
            if isInvisibleControl(scalar) { continue }
            if pendingSpace && !result.isEmpty { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        return String(result)
    }

    /// One `@`, text on both sides, no whitespace or control characters, at most 254 bytes of UTF-8 (the RFC 5321
    /// limit, and the same rule as `MusterCore.EmailAddress.isPlausible`). Deliberately loose beyond that: the list
    /// came from a system that already accepted the address.
    static func isPlausibleEmail(_ email: String) -> Bool {
        var atSigns = 0
        var atOffset = 0
        var isASCII = true
        for (offset, byte) in email.utf8.enumerated() {
            if byte == UInt8(ascii: "@") {
                atSigns += 1
                atOffset = offset
            } else if byte <= 0x20 || byte == 0x7F {
                return false
            } else if byte >= 0x80 {
                isASCII = false
            }
        }
        let length = email.utf8.count
        guard atSigns == 1, atOffset > 0, atOffset < length - 1, length <= maximumEmailLength else { return false }
        if isASCII { return true }
        return !email.unicodeScalars.contains { scalar in
            scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || isInvisibleControl(scalar)
        }
    }

    /// Lowercased and trimmed, with `spaceLike` characters read as spaces and runs of spaces collapsed to one, so
    /// that `First_Name`, ` first name ` and `FIRST  NAME` compare equal.
    static func comparable(_ text: String, spaceLike: [Unicode.Scalar]) -> String {
        let trimmed = trim(text)
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        if trimmed.utf8.allSatisfy({ $0 < 0x80 }) {
            // Fast path for the usual case; avoids Unicode property lookups and full case mapping.
            for byte in trimmed.utf8 {
                let scalar = Unicode.Scalar(byte)
                if byte == 0x20 || (0x09...0x0D).contains(byte) || spaceLike.contains(scalar) {
                    pendingSpace = true
                    continue
                }
                if pendingSpace && !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append((0x41...0x5A).contains(byte) ? Unicode.Scalar(byte + 0x20) : scalar)
            }
            return String(result)
        }
        for scalar in trimmed.lowercased().unicodeScalars {
            if spaceLike.contains(scalar) || scalar.properties.isWhitespace {
                pendingSpace = true
                continue
            }
            if pendingSpace && !result.isEmpty { result.append(" ") }
            pendingSpace = false
            result.append(scalar)
        }
        return String(result)
    }

    /// Splits on the last space: "Ana María López" → ("Ana María", "López"); a single word is a first name.
    static func splitName(_ name: String) -> (first: String, last: String) {
        guard let space = name.lastIndex(of: " ") else { return (name, "") }
        return (trim(String(name[..<space])), trim(String(name[name.index(after: space)...])))
    }

    /// Printable ASCII without doubled spaces: nothing for `clean` to do beyond trimming.
    private static func isTidyASCII(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            guard byte >= 0x20 && byte < 0x7F, !(byte == 0x20 && previous == 0x20) else { return false }
            previous = byte
        }
        return true
    }

    private static func isLineOrTabControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// C0/C1 controls, bidirectional embeddings, overrides and isolates (which can make a name display reversed),
    /// and byte-order / zero-width-space marks.
    private static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0x200B: return true
        default: return false
        }
    }
}
