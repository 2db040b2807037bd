import Foundation

/// Reads the CSV files organizers export from CRMs, ticketing tools and spreadsheets.
///
/// Strict where a guess could silently corrupt the attendee list (column counts, quoting, encoding), tolerant of
/// the harmless variations real exporters produce (BOM, line-end style, blank lines, European delimiters).
public enum CSVReader {
    /// RFC 4180 with the usual real-world tolerance: UTF-8 with or without BOM, LF or CRLF (or lone CR) line ends,
    /// quoted fields containing commas, doubled quotes and newlines; a trailing newline or blank trailing lines are
    /// fine; completely blank lines in the middle are skipped. Every record must have the header's column count.
    /// Also detect `;` or tab as delimiter when the header line has no comma but has those (European Excel exports).
    ///
    /// Lines holding only spaces count as blank. Spaces between a delimiter and an opening quote, or between a closing
    /// quote and the next delimiter, are ignored. Field values are otherwise returned exactly as written.
    ///
    /// `limits` bound a single field and a single record while scanning (see ``CSVLimits``); the number of records
    /// is the caller's business (``AttendeeListImport`` counts records in a first pass that builds nothing, and stops at its
    /// own row limit).
    public static func parse(_ data: Data, limits: CSVLimits = .standard) throws(CSVError) -> CSVTable {
        // `Data.withUnsafeBytes` only rethrows untyped errors, so the typed error comes out as a `Result`.
        let result: Result<CSVTable, CSVError> = data.withUnsafeBytes { raw in
            var parser = CSVParser(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
            do throws(CSVError) {
                return .success(try parser.parseTable())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
