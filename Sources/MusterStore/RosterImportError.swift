import Foundation

/// Why an attendee list was rejected. Import is all-or-nothing, so the message must let the organizer find the
/// line and fix the file without help.
public struct RosterImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The file is not well-formed CSV.
        case csv(CSVError.Reason)
        /// There is an email column, but the other columns match none of the known exports.
        case unknownFormat(header: [String])
        /// No column holds email addresses, which are how attendees are identified.
        case noEmailColumn
        /// The value (trimmed) in the email column is not an email address.
        case invalidEmail(String)
        /// A value in the named column (as spelled in the header) is over 1,000 characters.
        case tooLong(field: String)
    }

    /// 1-based physical line of the offending record or header.
    public let line: Int
    public let reason: Reason

    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    public var description: String {
        "line \(line): " + explanation
    }

    private var explanation: String {
        switch reason {
        case let .csv(csvReason):
            return CSVError.explanation(of: csvReason, line: line)
        case let .unknownFormat(header):
            let shown = header.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ")
                + (header.count > 12 ? ", …" : "")
            return "the columns (\(shown)) match no known export (Salesforce campaign members, Eventbrite attendees, "
                + "pretix check-in list); for a simple list name the columns email, first_name, last_name, company "
                + "and ticket"
        case .noEmailColumn:
            return "no email column found; expected one of Email, E-mail, Email Address (any capitalization); "
                + "rename the column that holds the attendees' email addresses"
        case let .invalidEmail(value):
            let shown = value.count > 80 ? String(value.prefix(80)) + "…" : value
            return "\"\(shown)\" is not a valid email address (it needs exactly one @ with text on both sides, "
                + "no spaces, at most 254 characters); correct or delete this row and import again"
        case let .tooLong(field):
            return "the value in column \"\(field)\" is longer than 1,000 characters; shorten it and import again"
        }
    }
}
