import Foundation

/// One parsed CSV record and the 1-based physical line where it starts (for error messages).
public struct CSVRecord: Sendable, Equatable {
    /// Physical line of the record's first character; later records account for newlines inside quoted fields.
    public let line: Int
    /// Field values exactly as written (quotes removed, no trimming).
    public let fields: [String]
}
