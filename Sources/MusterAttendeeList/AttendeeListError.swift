import Foundation
import MusterCore

/// Why an attendee list was rejected. Import is all-or-nothing, so the message must let the organizer find the
/// line and fix the file without help.
public struct AttendeeListError: LineNumberedError, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The file is not well-formed CSV.
        case csv(CSVError.Reason)
        /// There is an email column, but the other columns match none of the known exports.
        case unknownFormat(header: [String])
        /// No column holds email addresses, which are how attendees are identified.
        case noEmailColumn
        /// The value (trimmed) in the email column is not an email address.
        case invalidEmail(String)
        /// A value in the named column (as spelled in the header) is over 1,000 bytes of UTF-8 once trimmed;
        /// `bytes` is its length.
        case tooLong(field: String, bytes: Int)
        /// The file has more data rows than `AttendeeListLimits.maximumRows`; `line` is where the first row over the
        /// limit starts, and nothing after it was read.
        case tooManyRows(limit: Int)
        /// The file is larger than `AttendeeListLimits.maximumFileBytes` (`line` is 0); it was not read.
        case fileTooLarge(bytes: Int, limit: Int)
        /// The file could not be opened or read (`line` is 0); the cause as the system states it.
        case unreadable(String)
        /// A ticket detail (type, order, add-ons, attention, validity) the door could not use: the
        /// column as the header spells it, the value, and what the column holds.
        case invalidDetail(field: String, value: String, expected: String)
    }

    /// 1-based physical line of the offending record or header; 0 when the problem is the file as a whole
    /// (its size, or that it cannot be read), which has no line to point at.
    public let line: Int
    public let reason: Reason

    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    public var explanation: String {
        switch reason {
        case let .csv(csvReason):
            return CSVError.explanation(of: csvReason, line: line)
        case let .unknownFormat(header):
            let shown =
                header.prefix(12).map { "\"\(Self.shown($0))\"" }.joined(separator: ", ")
                + (header.count > 12 ? ", …" : "")
            return "the columns (\(shown)) match no known export (Salesforce campaign members, Eventbrite attendees, "
                + "pretix check-in list); for a simple list name the columns email, first_name, last_name, company "
                + "and ticket"
        case .noEmailColumn:
            return "no email column found; expected one of Email, E-mail, Email Address (any capitalization); "
                + "rename the column that holds the attendees' email addresses"
        case let .invalidEmail(value):
            return
                "\"\(Self.shown(value))\" is not a valid email address (it needs exactly one @ with text on both sides, "
                + "no spaces, at most 254 characters); correct or delete this row and import again"
        case let .tooLong(field, bytes):
            return
                "the value in column \"\(Self.shown(field))\" is \(CSVError.grouped(bytes)) bytes of UTF-8; the limit is 1,000 "
                + "bytes (about 1,000 Latin letters, fewer in other scripts or emoji); shorten it and import again"
        case let .tooManyRows(limit):
            let count = CSVError.grouped(limit)
            return "more than \(count) attendee rows (row \(CSVError.grouped(limit + 1)) starts on this line); "
                + "split the file into several imports of at most \(count) rows each"
        case let .fileTooLarge(bytes, limit):
            return "the file is \(Self.size(bytes)); the largest attendee list muster imports is \(Self.size(limit)); "
                + "split it into several files and import each one"
        case let .unreadable(cause):
            return "the file cannot be read: \(Self.shown(cause, limit: 500))"
        case let .invalidDetail(field, value, expected):
            return "\"\(Self.shown(value))\" in column \"\(Self.shown(field))\" is not \(expected); correct it and "
                + "import again"
        }
    }

    /// A value from the file (or the system) as a message quotes it: made safe for a terminal here,
    /// where it is quoted, and cut to `limit` characters. Sanitizing only the composed message is too
    /// late: an escape sequence left open in one value (an OSC runs to its terminator) would swallow
    /// every word after it, "nothing was imported" included.
    static func shown(_ value: String, limit: Int = 80) -> String {
        let safe = TerminalText.sanitize(value, maxCharacters: limit + 1)
        return safe.count > limit ? String(safe.prefix(limit)) + "…" : safe
    }

    /// `80 MiB (83,886,080 bytes)`: binary units to match the limit, and the exact count so that a file one byte
    /// over does not read as the same size as the limit.
    private static func size(_ bytes: Int) -> String {
        let mebibyte = 1_048_576
        guard bytes >= mebibyte else { return "\(CSVError.grouped(bytes)) bytes" }
        let rounded =
            bytes % mebibyte == 0
            ? "\(bytes / mebibyte)" : String(format: "%.1f", Double(bytes) / Double(mebibyte))
        return "\(rounded) MiB (\(CSVError.grouped(bytes)) bytes)"
    }
}
