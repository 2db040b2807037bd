import Foundation

/// How much one import may ask of the organizer's laptop, so that a hostile or runaway file ends in a clear error
/// instead of an exhausted machine, and never in a half-imported attendee list.
///
/// The limits are checked in order of cost: the file size before a byte is read, the field and record size while
/// the parser scans, the row count as records arrive (parsing stops at the first row over the limit). Memory
/// therefore stays at one copy of the file plus the normalized rows.
public struct AttendeeListLimits: Sendable, Equatable {
    /// Largest file read at all, checked with `fstat` before reading and enforced again while reading.
    ///
    /// 64 MiB holds 250,000 rows of about 270 bytes, more than the widest real exports (Eventbrite with a dozen
    /// custom questions) need per row.
    public var maximumFileBytes: Int
    /// Most data records (blank or email-less ones included, since they cost the same to read) in one import.
    ///
    /// 250,000 is well above the largest single events organizers run Muster for; a bigger list is almost
    /// certainly the wrong file, and splitting it costs the organizer a minute.
    public var maximumRows: Int
    /// The parser's structural guards; the attendee list's own rule for a value (1,000 characters) is checked later,
    /// only on the columns the import reads.
    public var csv: CSVLimits

    public init(maximumFileBytes: Int = 64 * 1024 * 1024, maximumRows: Int = 250_000, csv: CSVLimits = .standard) {
        self.maximumFileBytes = maximumFileBytes
        self.maximumRows = maximumRows
        self.csv = csv
    }

    /// 64 MiB, 250,000 rows, 64 KiB per field, 1 MiB per record.
    public static let standard = AttendeeListLimits()
}
