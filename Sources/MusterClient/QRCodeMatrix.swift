/// The grid of modules being built: function patterns first, then codewords, then a mask.
///
/// Tracks which modules belong to function patterns (finders, separators, timing, alignment,
/// format and version information, the dark module) because data placement skips them and
/// masking must leave them alone. Coordinates are `x` = column, `y` = row, origin top left.
struct QRCodeMatrix: Sendable, Equatable {
    let version: Int
    let size: Int
    /// Row-major, `true` = dark.
    private(set) var modules: [Bool]
    /// Row-major, `true` = part of a function pattern or reserved information area.
    private(set) var isFunction: [Bool]

    /// A symbol of `version` with every function pattern drawn and the format area reserved.
    init(version: Int) {
        self.version = version
        size = QRCodeTable.size(version: version)
        modules = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
        drawFunctionPatterns()
    }

    subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    func isFunction(x: Int, y: Int) -> Bool { isFunction[y * size + x] }

    private mutating func setFunction(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns() {
        // Timing patterns first; finders and alignment patterns then overwrite their ends.
        for index in 0..<size {
            setFunction(x: 6, y: index, dark: index % 2 == 0)
            setFunction(x: index, y: 6, dark: index % 2 == 0)
        }
        drawFinder(centerX: 3, centerY: 3)
        drawFinder(centerX: size - 4, centerY: 3)
        drawFinder(centerX: 3, centerY: size - 4)

        let positions = QRCodeTable.alignmentPositions(version: version)
        for y in positions {
            for x in positions {
                // The three corners already hold finder patterns.
                let nearFinder =
                    (x == 6 && y == 6) || (x == 6 && y == positions.last) || (x == positions.last && y == 6)
                if !nearFinder { drawAlignment(centerX: x, centerY: y) }
            }
        }
        // Reserve both format areas now (any value will do); the mask loop writes the real bits.
        drawFormatInformation(level: .medium, mask: QRCodeMask(reference: 0))
        drawVersionInformation()
    }

    /// A 7×7 finder with its one-module light separator, clipped at the symbol's edge.
    private mutating func drawFinder(centerX: Int, centerY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centerX + dx
                let y = centerY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let ring = max(abs(dx), abs(dy))
                setFunction(x: x, y: y, dark: ring != 2 && ring != 4)
            }
        }
    }

    /// A 5×5 alignment pattern: dark ring, light ring, dark centre.
    private mutating func drawAlignment(centerX: Int, centerY: Int) {
        for dy in -2...2 {
            for dx in -2...2 {
                setFunction(x: centerX + dx, y: centerY + dy, dark: max(abs(dx), abs(dy)) != 1)
            }
        }
    }

    /// Writes both copies of the 15-bit format information, and the dark module beside the
    /// bottom-left copy. Bit 0 is the least significant bit of the BCH-coded word.
    mutating func drawFormatInformation(level: QRCode.ErrorCorrection, mask: QRCodeMask) {
        let bits = Self.formatInformation(level: level, mask: mask)
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }

        // Around the top-left finder: down column 8 (skipping the timing row), then left along row 8.
        for index in 0...5 { setFunction(x: 8, y: index, dark: bit(index)) }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for index in 9..<15 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }

        // Split between the other two finders: along row 8 at the right, up column 8 at the bottom.
        for index in 0..<8 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
        for index in 8..<15 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
        setFunction(x: 8, y: size - 8, dark: true)
    }

    /// Writes both 6×3 copies of the 18-bit version information, from version 7 on.
    private mutating func drawVersionInformation() {
        guard version >= 7 else { return }
        let bits = Self.versionInformation(version: version)
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let long = size - 11 + index % 3
            let short = index / 3
            setFunction(x: long, y: short, dark: dark)
            setFunction(x: short, y: long, dark: dark)
        }
    }

    /// Places codeword bits, most significant first, in two-module-wide columns that snake
    /// upwards and downwards from the bottom-right corner, skipping function modules and the
    /// vertical timing column. Modules left over (the remainder bits) stay light.
    mutating func place(codewords: [UInt8]) {
        let totalBits = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !isFunction(x: x, y: y) && bitIndex < totalBits {
                    modules[y * size + x] = (codewords[bitIndex >> 3] >> (7 - UInt8(bitIndex & 7))) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// Flips every non-function module that `mask` selects; applying it twice undoes it.
    mutating func apply(_ mask: QRCodeMask) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && mask.flips(x: x, y: y) {
                modules[y * size + x].toggle()
            }
        }
    }
}
