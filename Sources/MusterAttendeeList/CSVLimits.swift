import Foundation

/// Structural bounds the CSV parser enforces while it scans, so a hostile or broken file (a 10 MB field, a stray
/// quote that swallows the rest of the file, a line of a million commas) fails at the spot where it goes wrong
/// instead of being copied into memory first.
///
/// These are guards, not content rules: they sit far above anything a real export contains (the attendee list's own rule
/// for a value is ``AttendeeListText``'s 1,000 characters), and they only bound the work one field or one record can cause.
public struct CSVLimits: Sendable, Equatable {
    /// Longest field in bytes as written in the file, between the quotes for a quoted field (a doubled quote counts
    /// as two). Checked byte by byte, before the field becomes a `String`.
    public var maximumFieldBytes: Int
    /// Longest record in bytes, from its first byte to the end of its last field (line breaks inside quoted fields
    /// included). Bounds the fields one record can hold, since a field may be empty.
    public var maximumRecordBytes: Int

    public init(maximumFieldBytes: Int = 64 * 1024, maximumRecordBytes: Int = 1024 * 1024) {
        self.maximumFieldBytes = maximumFieldBytes
        self.maximumRecordBytes = maximumRecordBytes
    }

    /// 64 KiB per field, 1 MiB per record.
    public static let standard = CSVLimits()
}
