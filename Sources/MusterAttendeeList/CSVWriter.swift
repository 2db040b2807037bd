import Foundation

/// Writes CSV for the check-in export that organizers open in Excel or upload to their CRM.
///
/// Attendee names and companies come from strangers filling in registration forms, so a value like `=HYPERLINK(...)`
/// must not turn into a live formula when the organizer opens the export in a spreadsheet.
public enum CSVWriter {
    /// One record, terminated by CRLF so that lines can be concatenated or streamed as they are produced.
    ///
    /// RFC 4180: CRLF line ends, fields quoted when they contain `"`, `,`, CR or LF; quotes doubled.
    /// Cells that start with `=`, `+`, `-`, `@` (also after leading whitespace, tabs or invisible marks), tab or
    /// CR are neutralized against formula injection by prefixing a single quote `'`.
    ///
    /// A record that is a single empty or all-space field is written as `""`, because a bare blank line would be
    /// read back as no record at all.
    public static func line(_ fields: [String]) -> String {
        if fields.count == 1, fields[0].utf8.allSatisfy({ $0 == UInt8(ascii: " ") }) {
            return "\"" + fields[0] + "\"\r\n"
        }
        var result = ""
        for (index, field) in fields.enumerated() {
            if index > 0 { result.append(",") }
            result.append(escape(field))
        }
        result.append("\r\n")
        return result
    }

    /// A complete file: the header line followed by one line per row, every line ending in CRLF (no BOM).
    ///
    /// Header cells go through the same quoting and neutralization as data cells.
    public static func document(header: [String], rows: [[String]]) -> String {
        var result = line(header)
        for row in rows {
            result.append(line(row))
        }
        return result
    }

    /// Neutralizes a leading formula character, then quotes the field if it needs it.
    static func escape(_ field: String) -> String {
        var value = field
        if startsFormula(value) {
            value = "'" + value
        }
        let needsQuotes = value.utf8.contains { byte in
            byte == UInt8(ascii: "\"") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n")
        }
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether a spreadsheet could read the cell as a formula: its first character, or the first one after any
    /// leading whitespace (spaces, tabs, no-break spaces) and invisible marks, is `=`, `+`, `-` or `@`; or it starts
    /// with a tab or CR.
    ///
    /// Spreadsheets trim leading whitespace before they look for a formula, and the export turns a tab into a
    /// space before it gets here, so `"\t=HYPERLINK(…)"` must be caught after the trim, not only at the first
    /// character.
    static func startsFormula(_ value: String) -> Bool {
        for scalar in value.unicodeScalars {
            if scalar == "\t" || scalar == "\r" { return true }
            if formulaStarters.contains(scalar) { return true }
            guard scalar.properties.isWhitespace || ignorableLeaders.contains(scalar.value) else { return false }
        }
        return false
    }

    private static let formulaStarters: Set<Unicode.Scalar> = ["=", "+", "-", "@"]

    /// Invisible characters a spreadsheet may skip before a formula: zero-width space and joiners, word joiner,
    /// byte-order mark, and the bidirectional marks, embeddings, overrides and isolates.
    private static let ignorableLeaders: Set<UInt32> = [
        0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2060, 0x2066,
        0x2067, 0x2068, 0x2069, 0xFEFF,
    ]
}
