/// The payload as one QR data segment: a mode, a character count and the encoded characters.
///
/// Digits and the 45-character alphanumeric set pack tighter than bytes (10 bits per 3 digits,
/// 11 bits per 2 characters), so text that happens to fit them — ticket codes, upper-case URLs —
/// gets a smaller, easier to scan symbol. A single segment keeps the encoder simple; mixing modes
/// would save a few more modules at the cost of an optimiser.
struct QRCodeSegment: Sendable, Equatable {
    enum Mode: Sendable, Equatable {
        case numeric, alphanumeric, byte

        /// The 4-bit mode indicator.
        var indicator: Int {
            switch self {
            case .numeric: 0b0001
            case .alphanumeric: 0b0010
            case .byte: 0b0100
            }
        }

        /// Width of the character count field, which grows with the version (Table 3).
        func countBits(version: Int) -> Int {
            let band = version <= 9 ? 0 : version <= 26 ? 1 : 2
            switch self {
            case .numeric: return [10, 12, 14][band]
            case .alphanumeric: return [9, 11, 13][band]
            case .byte: return [8, 16, 16][band]
            }
        }
    }

    let mode: Mode
    /// Characters for numeric and alphanumeric mode, bytes for byte mode.
    let count: Int
    /// The encoded characters, without mode indicator or count.
    let data: QRCodeBitBuffer

    /// The characters of alphanumeric mode, in the order of their values 0–44.
    static let alphanumericCharset = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    /// Arbitrary bytes, eight bits each.
    static func bytes(_ payload: [UInt8]) -> QRCodeSegment {
        var buffer = QRCodeBitBuffer()
        for byte in payload { buffer.append(Int(byte), width: 8) }
        return QRCodeSegment(mode: .byte, count: payload.count, data: buffer)
    }

    /// Text in the densest mode that holds all of it; UTF-8 bytes when neither digits nor
    /// alphanumerics do (phones decode byte mode as UTF-8).
    static func text(_ text: String) -> QRCodeSegment {
        let utf8 = Array(text.utf8)
        if !utf8.isEmpty, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return numeric(utf8)
        }
        if !utf8.isEmpty, utf8.allSatisfy({ alphanumericValue($0) != nil }) {
            return alphanumeric(utf8)
        }
        return bytes(utf8)
    }

    /// Groups of three digits in 10 bits; a trailing pair in 7, a single digit in 4.
    static func numeric(_ digits: [UInt8]) -> QRCodeSegment {
        var buffer = QRCodeBitBuffer()
        var index = 0
        while index < digits.count {
            let group = digits[index..<min(index + 3, digits.count)]
            let value = group.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            buffer.append(value, width: group.count * 3 + 1)
            index += 3
        }
        return QRCodeSegment(mode: .numeric, count: digits.count, data: buffer)
    }

    /// Pairs as `45 * first + second` in 11 bits; a trailing character in 6.
    static func alphanumeric(_ characters: [UInt8]) -> QRCodeSegment {
        var buffer = QRCodeBitBuffer()
        var index = 0
        while index + 1 < characters.count {
            let first = alphanumericValue(characters[index]) ?? 0
            let second = alphanumericValue(characters[index + 1]) ?? 0
            buffer.append(first * 45 + second, width: 11)
            index += 2
        }
        if index < characters.count {
            buffer.append(alphanumericValue(characters[index]) ?? 0, width: 6)
        }
        return QRCodeSegment(mode: .alphanumeric, count: characters.count, data: buffer)
    }

    static func alphanumericValue(_ character: UInt8) -> Int? {
        alphanumericCharset.firstIndex(of: character)
    }

    /// Bits this segment occupies in a symbol of `version`, or `nil` when its count overflows the
    /// count field there.
    func encodedBits(version: Int) -> Int? {
        let countBits = mode.countBits(version: version)
        guard count < 1 << countBits else { return nil }
        return 4 + countBits + data.count
    }
}
