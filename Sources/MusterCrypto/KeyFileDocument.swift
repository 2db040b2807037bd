import MusterCore

/// The parsed text of a key file: `name = "string"` or `name = 123` lines,
/// `#` comments, nothing else.
///
/// Parsing works on the raw bytes (held in `SecureBytes`) and records only
/// where each value lies, so the seed is decoded straight into another
/// `SecureBytes` without ever becoming a Swift `String` or array. Error
/// messages cite line numbers and known field names only, never line content,
/// because a malformed line may be the seed.
struct KeyFileDocument {
    /// Every field a v1 key file may contain. Unknown names are rejected: new
    /// fields mean a new format version.
    static let knownFields: Set<String> = [
        "format", "public", "seed", "kdf", "salt", "opslimit", "memlimit", "nonce", "sealed_seed",
    ]

    private enum Kind { case string, integer }
    private struct Field {
        let kind: Kind
        let range: Range<Int>
        let line: Int
    }

    /// Keeps the file contents alive (and zeroed on release) while `bytes` points into them.
    private let storage: SecureBytes
    private let bytes: UnsafeRawBufferPointer
    private var fields: [String: Field] = [:]
    private let path: String

    /// Parses the contents of the key file at `path`.
    init(parsing contents: SecureBytes, path: String) throws(MusterCryptoError) {
        self.storage = contents
        self.bytes = contents.unsafeBytesWhileAlive
        self.path = path
        var lineStart = 0
        var lineNumber = 0
        while lineStart < bytes.count {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            try parseLine(lineStart..<lineEnd, number: lineNumber)
            lineStart = lineEnd + 1
        }
    }

    private mutating func parseLine(_ line: Range<Int>, number: Int) throws(MusterCryptoError) {
        var i = skipSpaces(from: line.lowerBound, in: line)
        if i == line.upperBound || bytes[i] == UInt8(ascii: "#") { return }

        let nameStart = i
        while i < line.upperBound, isNameByte(bytes[i]) { i += 1 }
        guard i > nameStart else { throw malformed(number, "expected `name = value`") }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
        guard Self.knownFields.contains(name) else { throw malformed(number, "unknown field") }
        guard fields[name] == nil else { throw malformed(number, "field `\(name)` appears twice") }

        i = skipSpaces(from: i, in: line)
        guard i < line.upperBound, bytes[i] == UInt8(ascii: "=") else {
            throw malformed(number, "expected `=` after `\(name)`")
        }
        i = skipSpaces(from: i + 1, in: line)
        guard i < line.upperBound else { throw malformed(number, "`\(name)` has no value") }

        let field: Field
        if bytes[i] == UInt8(ascii: "\"") {
            let valueStart = i + 1
            var valueEnd = valueStart
            while valueEnd < line.upperBound, bytes[valueEnd] != UInt8(ascii: "\"") {
                guard isPlainValueByte(bytes[valueEnd]) else {
                    throw malformed(number, "`\(name)` contains a character that is not allowed")
                }
                valueEnd += 1
            }
            guard valueEnd < line.upperBound else { throw malformed(number, "`\(name)` is missing its closing quote") }
            field = Field(kind: .string, range: valueStart..<valueEnd, line: number)
            i = valueEnd + 1
        } else if isDigit(bytes[i]) {
            let valueStart = i
            while i < line.upperBound, isDigit(bytes[i]) { i += 1 }
            field = Field(kind: .integer, range: valueStart..<i, line: number)
        } else {
            throw malformed(number, "the value of `\(name)` must be a quoted string or a number")
        }

        i = skipSpaces(from: i, in: line)
        guard i == line.upperBound || bytes[i] == UInt8(ascii: "#") else {
            throw malformed(number, "unexpected text after the value of `\(name)`")
        }
        fields[name] = field
    }

    // MARK: Access

    /// Whether the file has `name` at all.
    func has(_ name: String) -> Bool { fields[name] != nil }

    /// A non-secret string field, or nil if absent.
    func string(_ name: String) throws(MusterCryptoError) -> String? {
        guard let field = fields[name] else { return nil }
        guard field.kind == .string else { throw malformed(field.line, "`\(name)` must be a quoted string") }
        return String(decoding: bytes[field.range], as: UTF8.self)
    }

    /// A required non-secret hex field of exactly `count` bytes.
    func hexBytes(_ name: String, count: Int) throws(MusterCryptoError) -> [UInt8] {
        guard let text = try string(name) else { throw missing(name) }
        guard let decoded = Hex.decode(text), decoded.count == count else {
            throw invalid("`\(name)` must be \(count * 2) hex characters")
        }
        return decoded
    }

    /// A required unsigned integer field within `bounds`.
    func integer(_ name: String, in bounds: ClosedRange<UInt64>) throws(MusterCryptoError) -> UInt64 {
        guard let field = fields[name] else { throw missing(name) }
        guard field.kind == .integer else { throw malformed(field.line, "`\(name)` must be a number") }
        let text = String(decoding: bytes[field.range], as: UTF8.self)
        guard let value = UInt64(text), bounds.contains(value) else {
            throw invalid("`\(name)` must be between \(bounds.lowerBound) and \(bounds.upperBound)")
        }
        return value
    }

    /// The secret hex field `name`, decoded directly into secure memory.
    func secretHex(_ name: String, count: Int) throws(MusterCryptoError) -> SecureBytes {
        guard let field = fields[name] else { throw missing(name) }
        guard field.kind == .string else { throw malformed(field.line, "`\(name)` must be a quoted string") }
        do throws(MusterCryptoError) {
            return try SecureBytes(
                hexUTF8: UnsafeRawBufferPointer(rebasing: bytes[field.range]),
                count: count,
                what: name
            )
        } catch  where error.code == .badLength {
            throw invalid(error.message)
        }
    }

    // MARK: Errors

    func missing(_ name: String) -> MusterCryptoError {
        invalid("the field `\(name)` is missing")
    }

    func invalid(_ reason: String) -> MusterCryptoError {
        let sentence = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        return MusterCryptoError(.badKeyFile, "The key file at \(path) is not valid: \(sentence).")
    }

    private func malformed(_ line: Int, _ reason: String) -> MusterCryptoError {
        invalid("line \(line): \(reason)")
    }

    // MARK: Lexing

    private func skipSpaces(from start: Int, in line: Range<Int>) -> Int {
        var i = start
        while i < line.upperBound,
            bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\r")
        {
            i += 1
        }
        return i
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: "_")
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Values are hex or simple identifiers: letters, digits, `-`, `_`, `.`.
    private func isPlainValueByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || isNameByte(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
