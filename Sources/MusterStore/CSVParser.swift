import Foundation

/// The byte-level state machine behind `CSVReader`.
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
    private var position = 0
    private var line = 1
    private var delimiter = CSVParser.comma
    private var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// `Data.withUnsafeBytes` only rethrows untyped errors, so the reader carries the typed error out as a `Result`.
    mutating func parseTableResult() -> Result<CSVTable, CSVError> {
        do {
            return .success(try parseTable())
        } catch {
            return .failure(error)
        }
    }

    mutating func parseTable() throws(CSVError) -> CSVTable {
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
        let header = try parseRecord(expectedCount: 8)
        var records: [CSVRecord] = []
        while true {
            skipBlankLines()
            if position >= bytes.count { break }
            let recordLine = line
            let fields = try parseRecord(expectedCount: header.count)
            guard fields.count == header.count else {
                throw CSVError(line: recordLine, reason: .wrongColumnCount(expected: header.count, found: fields.count))
            }
            records.append(CSVRecord(line: recordLine, fields: fields))
        }
        return CSVTable(header: header, records: records, headerLine: headerLine)
    }

    // MARK: - Records and fields

    private mutating func parseRecord(expectedCount: Int) throws(CSVError) -> [String] {
        var fields: [String] = []
        fields.reserveCapacity(expectedCount)
        while true {
            fields.append(try parseField())
            guard position < bytes.count else { return fields }
            if bytes[position] == delimiter {
                position += 1
                continue
            }
            consumeLineBreak()
            return fields
        }
    }

    private mutating func parseField() throws(CSVError) -> String {
        var probe = position
        while probe < bytes.count && isPadding(bytes[probe]) { probe += 1 }
        if probe < bytes.count && bytes[probe] == Self.quote {
            position = probe + 1
            return try parseQuotedField()
        }
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == delimiter || byte == Self.cr || byte == Self.lf { break }
            if byte == Self.quote { throw CSVError(line: line, reason: .quoteInUnquotedField) }
            position += 1
        }
        return string(from: start, to: position)
    }

    /// Called just after the opening quote; leaves `position` at the delimiter or line break that ends the field.
    private mutating func parseQuotedField() throws(CSVError) -> String {
        let openingLine = line
        var segmentStart = position
        var usesScratch = false
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard position < bytes.count else { throw CSVError(line: openingLine, reason: .unterminatedQuote) }
            let byte = bytes[position]
            if byte == Self.quote {
                if position + 1 < bytes.count && bytes[position + 1] == Self.quote {
                    // Keep the first quote of the pair, drop the second.
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart...position]))
                    usesScratch = true
                    position += 2
                    segmentStart = position
                    continue
                }
                let value: String
                if usesScratch {
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<position]))
                    value = String(decoding: scratch, as: UTF8.self)
                } else {
                    value = string(from: segmentStart, to: position)
                }
                position += 1
                while position < bytes.count && isPadding(bytes[position]) { position += 1 }
                if position < bytes.count {
                    let next = bytes[position]
                    if next != delimiter && next != Self.cr && next != Self.lf {
                        throw CSVError(line: line, reason: .quoteInUnquotedField)
                    }
                }
                return value
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

    /// Bytes were validated up front, so decoding never substitutes replacement characters.
    private func string(from start: Int, to end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
