import Foundation

/// UTF-8 well-formedness check that reports *where* the first bad byte is, so the reader can name its line
/// (Foundation's decoders only say yes or no).
enum CSVUTF8 {
    /// Offset of the lead byte of the first ill-formed sequence (overlong forms, surrogates and code points
    /// above U+10FFFF included), or nil when all of `bytes` is well-formed UTF-8.
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = 0
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            var trailing: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: trailing = 1
            case 0xE0:
                trailing = 2
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
            case 0xED:
                trailing = 2
                high = 0x9F
            case 0xF0:
                trailing = 3
                low = 0x90
            case 0xF1...0xF3: trailing = 3
            case 0xF4:
                trailing = 3
                high = 0x8F
            default: return index
            }
            guard index + trailing < count else { return index }
            let second = bytes[index + 1]
            guard second >= low && second <= high else { return index }
            var next = index + 2
            trailing -= 1
            while trailing > 0 {
                guard bytes[next] & 0xC0 == 0x80 else { return index }
                next += 1
                trailing -= 1
            }
            index = next
        }
        return nil
    }
}
