import Foundation

/// The byte-level state machine behind `CSVReader` and `AttendeeListImport`.
///
/// Works on UTF-8 bytes rather than `Character`s because every structural character (quote, delimiters, CR, LF)
/// is ASCII and can never occur inside a multi-byte sequence; this keeps 100k-row imports fast.
struct CSVParser {
    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let semicolon = UInt8(ascii: ";")
    private static let tab = UInt8(ascii: "\t")
    private static let space = UInt8(ascii: " ")
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")

    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: CSVLimits
    private var position = 0
    private var line = 1
    private var delimiter = CSVParser.comma
    private var columnCount = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: CSVLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The header row and then every record, for callers that want the whole table at once.
    mutating func parseTable() throws(CSVError) -> CSVTable {
        let (header, headerLine) = try parseHeader()
        var records: [CSVRecord] = []
        while let record = try nextRecord() {
            records.append(record)
        }
        return CSVTable(header: header, records: records, headerLine: headerLine)
    }

    /// Checks the encoding, skips a byte-order mark and leading blank lines, detects the delimiter and reads the
    /// header row. Call once, before ``nextRecord()`` or ``skipRecord()``.
    mutating func parseHeader() throws(CSVError) -> (fields: [String], line: Int) {
        if let bad = CSVUTF8.firstInvalidOffset(in: bytes) {
            throw CSVError(line: lineNumber(atOffset: bad), reason: .invalidUTF8)
        }
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            position = 3
        }
        skipBlankLines()
        guard position < bytes.count else { throw CSVError(line: 1, reason: .empty) }
        delimiter = detectDelimiter()
        let headerLine = line
        let header = try parseRecord(expectedCount: 8, storing: true).fields
        columnCount = header.count
        return (header, headerLine)
    }

    /// The next data record, or nil at the end of the file.
    ///
    /// Records come one at a time so that a caller keeps only what it derives from each one, rather than every
    /// field of the whole file.
    mutating func nextRecord() throws(CSVError) -> CSVRecord? {
        guard let (line, fields) = try record(storing: true) else { return nil }
        return CSVRecord(line: line, fields: fields)
    }

    /// Checks the next data record exactly as ``nextRecord()`` does (quoting, limits, column count) without making
    /// a single `String`; its line, or nil at the end of the file.
    ///
    /// A copy of the parser taken after the header can run ahead with this to validate the whole file and count
    /// its records, so that a caller can refuse a file before building anything from it.
    mutating func skipRecord() throws(CSVError) -> Int? {
        try record(storing: false)?.line
    }

    // MARK: - Records and fields

    /// Where a field's value lies in `bytes`: between the quotes for a quoted field.
    private struct FieldSpan {
        var start: Int
        var end: Int
        /// The span still holds `""` pairs, each of which stands for one `"`.
        var hasDoubledQuotes = false
    }

    private mutating func record(storing: Bool) throws(CSVError) -> (line: Int, fields: [String])? {
        skipBlankLines()
        guard position < bytes.count else { return nil }
        let recordLine = line
        let (fields, found) = try parseRecord(expectedCount: columnCount, storing: storing)
        guard found == columnCount else {
            throw CSVError(line: recordLine, reason: .wrongColumnCount(expected: columnCount, found: found))
        }
        return (recordLine, fields)
    }

    /// The record's values (none unless `storing`) and how many fields it has.
    private mutating func parseRecord(
        expectedCount: Int,
        storing: Bool
    ) throws(CSVError) -> (fields: [String], count: Int) {
        let recordStart = position
        let recordLine = line
        var fields: [String] = []
        if storing { fields.reserveCapacity(expectedCount) }
        var count = 0
        while true {
            let span = try parseField()
            // A field is at most `maximumFieldBytes`, so checking after each one overshoots by at most that much.
            guard position - recordStart <= limits.maximumRecordBytes else {
                throw CSVError(line: recordLine, reason: .recordTooLong(limit: limits.maximumRecordBytes))
            }
            count += 1
            if storing { fields.append(string(of: span)) }
            guard position < bytes.count else { return (fields, count) }
            if bytes[position] == delimiter {
                position += 1
                continue
            }
            consumeLineBreak()
            return (fields, count)
        }
    }

    private mutating func parseField() throws(CSVError) -> FieldSpan {
        var probe = position
        while probe < bytes.count && isPadding(bytes[probe]) { probe += 1 }
        if probe < bytes.count && bytes[probe] == Self.quote {
            position = probe + 1
            return try parseQuotedField()
        }
        let start = position
        // Scanning stops one byte past the limit, so an oversized field costs no more than the limit to reject.
        let remaining = bytes.count - start
        let scanEnd = remaining > limits.maximumFieldBytes ? start + limits.maximumFieldBytes + 1 : bytes.count
        while position < scanEnd {
            let byte = bytes[position]
            if byte == delimiter || byte == Self.cr || byte == Self.lf { break }
            if byte == Self.quote { throw CSVError(line: line, reason: .quoteInUnquotedField) }
            position += 1
        }
        guard position - start <= limits.maximumFieldBytes else {
            throw CSVError(line: line, reason: .fieldTooLong(limit: limits.maximumFieldBytes))
        }
        return FieldSpan(start: start, end: position)
    }

    /// Called just after the opening quote; leaves `position` at the delimiter or line break that ends the field.
    ///
    /// Nothing is copied while scanning, so a 10 MB value is rejected after looking at its first 64 KiB.
    private mutating func parseQuotedField() throws(CSVError) -> FieldSpan {
        let openingLine = line
        var span = FieldSpan(start: position, end: position)
        while true {
            guard position - span.start <= limits.maximumFieldBytes else {
                throw CSVError(line: openingLine, reason: .fieldTooLong(limit: limits.maximumFieldBytes))
            }
            guard position < bytes.count else { throw CSVError(line: openingLine, reason: .unterminatedQuote) }
            let byte = bytes[position]
            if byte == Self.quote {
                if position + 1 < bytes.count && bytes[position + 1] == Self.quote {
                    span.hasDoubledQuotes = true
                    position += 2
                    continue
                }
                span.end = position
                position += 1
                while position < bytes.count && isPadding(bytes[position]) { position += 1 }
                if position < bytes.count {
                    let next = bytes[position]
                    if next != delimiter && next != Self.cr && next != Self.lf {
                        throw CSVError(line: line, reason: .quoteInUnquotedField)
                    }
                }
                return span
            }
            if byte == Self.lf {
                line += 1
            } else if byte == Self.cr && !(position + 1 < bytes.count && bytes[position + 1] == Self.lf) {
                line += 1
            }
            position += 1
        }
    }

    // MARK: - Lines

    /// Skips lines that are empty or hold only spaces (and tabs, unless tab is the delimiter).
    private mutating func skipBlankLines() {
        while position < bytes.count {
            var probe = position
            while probe < bytes.count && isPadding(bytes[probe]) { probe += 1 }
            if probe == bytes.count {
                position = probe
                return
            }
            let byte = bytes[probe]
            guard byte == Self.cr || byte == Self.lf else { return }
            position = probe
            consumeLineBreak()
        }
    }

    /// Consumes one LF, CRLF or lone CR at `position`.
    private mutating func consumeLineBreak() {
        if bytes[position] == Self.cr && position + 1 < bytes.count && bytes[position + 1] == Self.lf {
            position += 2
        } else {
            position += 1
        }
        line += 1
    }

    private func isPadding(_ byte: UInt8) -> Bool {
        byte == Self.space || (byte == Self.tab && delimiter != Self.tab)
    }

    /// Comma unless the header line (outside quotes) has none but has semicolons or tabs; then the more frequent.
    private func detectDelimiter() -> UInt8 {
        var commas = 0
        var semicolons = 0
        var tabs = 0
        var quoted = false
        var probe = position
        while probe < bytes.count {
            let byte = bytes[probe]
            if byte == Self.quote {
                quoted.toggle()
            } else if !quoted {
                if byte == Self.cr || byte == Self.lf { break }
                if byte == Self.comma { commas += 1 }
                if byte == Self.semicolon { semicolons += 1 }
                if byte == Self.tab { tabs += 1 }
            }
            probe += 1
        }
        if commas > 0 || (semicolons == 0 && tabs == 0) { return Self.comma }
        return semicolons >= tabs ? Self.semicolon : Self.tab
    }

    /// 1-based physical line containing the byte at `offset`.
    private func lineNumber(atOffset offset: Int) -> Int {
        var number = 1
        var index = 0
        while index < offset {
            let byte = bytes[index]
            if byte == Self.lf || (byte == Self.cr && !(index + 1 < bytes.count && bytes[index + 1] == Self.lf)) {
                number += 1
            }
            index += 1
        }
        return number
    }

    /// The field's value, written straight into the new string's storage (dropping the second quote of each `""`).
    /// Bytes were validated up front, so decoding never substitutes replacement characters.
    private func string(of span: FieldSpan) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])
        guard span.hasDoubledQuotes else { return String(decoding: raw, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: raw.count) { buffer in
            var count = 0
            var index = 0
            while index < raw.count {
                buffer[count] = raw[index]
                count += 1
                // Inside a quoted field every quote is the first of a pair.
                index += raw[index] == Self.quote ? 2 : 1
            }
            return count
        }
    }
}
