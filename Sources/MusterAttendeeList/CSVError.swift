import Foundation

/// Why a CSV file could not be read, and where.
///
/// Import is all-or-nothing, so the organizer needs to find and fix the one bad spot in a file that may have
/// thousands of rows; every error therefore carries the 1-based physical line number and a message that says
/// what to change.
public struct CSVError: LineNumberedError, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The bytes are not UTF-8 (often a file saved as "CSV" instead of "CSV UTF-8", or a UTF-16 export).
        case invalidUTF8
        /// A field opened with `"` never closes; `line` is where it opened.
        case unterminatedQuote
        /// A record has a different number of fields than the header.
        case wrongColumnCount(expected: Int, found: Int)
        /// A `"` appears inside a field that is not enclosed in quotes, or text follows a closing quote.
        case quoteInUnquotedField
        /// There is no header row at all.
        case empty
        /// A field is longer than `CSVLimits.maximumFieldBytes`; `line` is where the field starts. Usually a quote
        /// that opens a field and never closes, so the rest of the file reads as one value.
        case fieldTooLong(limit: Int)
        /// A record is longer than `CSVLimits.maximumRecordBytes`; `line` is where the record starts.
        case recordTooLong(limit: Int)
    }

    /// 1-based physical line number (line breaks inside quoted fields count).
    public let line: Int
    public let reason: Reason

    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    public var explanation: String { Self.explanation(of: reason, line: line) }

    /// The message without the `line N:` prefix, shared with `AttendeeListError`.
    static func explanation(of reason: Reason, line: Int) -> String {
        switch reason {
        case .invalidUTF8:
            return "the file is not valid UTF-8 text (the first bad byte is on this line); "
                + "save or export it as \"CSV UTF-8\" and import it again"
        case .unterminatedQuote:
            return "unterminated quoted field (opened on line \(line)); add the missing closing \" "
                + "or remove the stray one"
        case let .wrongColumnCount(expected, found):
            return "expected \(expected) fields like the header row but found \(found); a value that contains "
                + "the delimiter (usually a comma) must be wrapped in double quotes"
        case .quoteInUnquotedField:
            return "a double quote appears in a field that is not enclosed in quotes; wrap the whole field in "
                + "double quotes and write each quote inside it twice (\"\")"
        case .empty:
            return "the file is empty; it needs a header row followed by one row per attendee"
        case let .fieldTooLong(limit):
            return "a field longer than \(grouped(limit)) bytes starts on this line; no attendee value is that "
                + "long, so look for a double quote that opens a field here and is never closed, or remove the "
                + "oversized value"
        case let .recordTooLong(limit):
            return "the row starting on this line is longer than \(grouped(limit)) bytes; no attendee row is that "
                + "long, so look for a stray double quote or a run of delimiters, or remove the oversized values"
        }
    }

    /// `1234567` as `1,234,567`, independent of the locale, so limits in messages read the same everywhere.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }
}
