import Foundation

/// The hostile attendee files of issue 13, shared by the parser, client and end-to-end tests so that every tier
/// refuses the very same bytes.
///
/// Each is a generic CSV (`email,first_name,last_name,company,ticket`) of `rows` honest attendees, one of whose
/// fields is replaced by a value that is short in characters and long in bytes: it passed a limit counted in
/// grapheme clusters, and then crashed or half-finished the import.
public enum HostileAttendeeFile {
    /// The header line; data rows start on line 2.
    public static let header = "email,first_name,last_name,company,ticket"

    /// 1,000 flag emoji (8 bytes each): 1,000 characters, 8,000 bytes.
    public static let thousandFlags = String(repeating: "\u{1F1EB}\u{1F1F7}", count: 1_000)

    /// 1,000 grapheme clusters of 8 bytes each (`é` precomposed plus three combining acute accents): 8,000 bytes.
    public static let eightThousandBytes = String(repeating: "\u{E9}\u{301}\u{301}\u{301}", count: 1_000)

    /// `rows` attendees with a name of 1,000 flags on `line` (both first and last name).
    public static func flagNames(rows: Int = 600, line: Int = 550) -> String {
        make(rows: rows) { row, fields in
            if row + 2 == line {
                fields[1] = thousandFlags
                fields[2] = thousandFlags
            }
        }
    }

    /// `rows` attendees with an 8,000-byte company on `line`.
    public static func longField(rows: Int = 600, line: Int = 321) -> String {
        make(rows: rows) { row, fields in
            if row + 2 == line { fields[3] = eightThousandBytes }
        }
    }

    /// The honest file the hostile ones are made from: `p<row>@example.com`, `First<row>`, `Last<row>`.
    public static func honest(rows: Int = 600) -> String { make(rows: rows) { _, _ in } }

    private static func make(rows: Int, edit: (Int, inout [String]) -> Void) -> String {
        var text = header + "\n"
        for row in 0..<rows {
            var fields = ["p\(row)@example.com", "First\(row)", "Last\(row)", "Company \(row)", "T-\(row)"]
            edit(row, &fields)
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }
}
