/// Reed–Solomon parity over GF(2⁸) with the QR field polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D).
///
/// Parity is the remainder of the data polynomial times xⁿ divided by the generator
/// g(x) = (x − α⁰)(x − α¹)…(x − αⁿ⁻¹), α = 2, exactly as ISO/IEC 18004 §7.5.2 specifies; a
/// reader that finds all n syndromes zero knows the block is intact.
enum QRCodeReedSolomon {
    /// αⁱ for i in 0..<255, repeated once so products need no modulo.
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for index in 0..<255 {
            table[index] = UInt8(value)
            table[index + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// log_α(v) for v in 1...255; entry 0 is unused.
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for index in 0..<255 { table[Int(exponents[index])] = index }
        return table
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }

    /// Coefficients of the monic generator of `degree`, highest power first, the leading 1 included.
    static func generator(degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for power in 0..<degree {
            // Multiply by (x + αᵖᵒʷᵉʳ); subtraction is addition in GF(2⁸).
            let root = exponents[power]
            var next = polynomial + [0]
            for index in 0..<polynomial.count {
                next[index + 1] ^= multiply(polynomial[index], root)
            }
            polynomial = next
        }
        return polynomial
    }

    /// The `degree` parity codewords for `data`.
    static func parity(for data: [UInt8], degree: Int) -> [UInt8] {
        let divisor = generator(degree: degree).dropFirst()
        var remainder = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for (index, coefficient) in divisor.enumerated() {
                remainder[index] ^= multiply(coefficient, factor)
            }
        }
        return remainder
    }
}
