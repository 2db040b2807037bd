/// FNV-1a over bytes and integers: names inputs (unique counts, failure file names) and summarises
/// what a parser did with one, so the driver can tell new behaviour from old.
///
/// Not cryptographic and need not be: a collision only costs one corpus entry or one unique count.
struct Fingerprint {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    init() {}

    init(of bytes: some Sequence<UInt8>) { mix(bytes) }

    mutating func mix(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }

    mutating func mix(_ number: Int) { mix(UInt64(bitPattern: Int64(number))) }

    mutating func mix(_ number: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            value = (value ^ ((number >> UInt64(shift)) & 0xFF)) &* 0x0000_0100_0000_01B3
        }
    }

    mutating func mix(_ text: String) { mix(text.utf8) }

    /// The input's name in reports and file names: 16 hex digits.
    static func hex(_ bytes: [UInt8]) -> String {
        let text = String(Fingerprint(of: bytes).value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
