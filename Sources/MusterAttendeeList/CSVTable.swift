import Foundation

/// A whole CSV file: the header row and every data record, each with the same number of fields as the header.
public struct CSVTable: Sendable, Equatable {
    public let header: [String]
    public let records: [CSVRecord]
    /// Physical line of the header row; 1 unless the file starts with blank lines. Lets callers point
    /// header problems (such as a missing email column) at the right line.
    public let headerLine: Int
}
