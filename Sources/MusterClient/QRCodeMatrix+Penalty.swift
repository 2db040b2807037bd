extension QRCodeMatrix {
    /// The mask evaluation score of ISO/IEC 18004 §7.8.3; lower is easier to read.
    ///
    /// Scored on the finished symbol (format information included), with the quiet zone around
    /// it counting as light, like the reader will see it:
    /// 1. each run of 5 + i same-coloured modules in a row or column: 3 + i;
    /// 2. each 2×2 block of one colour (overlapping blocks counted separately): 3;
    /// 3. each dark-light-dark-dark-dark-light-dark run with four light modules before or after
    ///    it, which looks like a finder pattern: 40;
    /// 4. 10 for every full 5 % the dark share deviates from 50 %.
    ///
    /// Encoders read rule 3 differently (whether the quiet zone counts as light, whether light on
    /// both sides counts twice). This follows ZXing, so that its published symbols can be matched
    /// exactly; any mask decodes, the choice only makes reading easier.
    var penalty: Int {
        var score = 0
        var line = [Bool](repeating: false, count: size)
        for horizontal in [true, false] {
            for fixed in 0..<size {
                for index in 0..<size {
                    line[index] = horizontal ? self[index, fixed] : self[fixed, index]
                }
                score += Self.runPenalty(line) + Self.finderLikePenalty(line)
            }
        }

        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = self[x, y]
                if self[x + 1, y] == color, self[x, y + 1] == color, self[x + 1, y + 1] == color {
                    score += 3
                }
            }
        }

        let dark = modules.lazy.filter { $0 }.count
        let total = size * size
        score += abs(dark * 20 - total * 10) / total * 10
        return score
    }

    private static func runPenalty(_ line: [Bool]) -> Int {
        var score = 0
        var runLength = 0
        for index in line.indices {
            runLength = index > 0 && line[index] == line[index - 1] ? runLength + 1 : 1
            if runLength == 5 {
                score += 3
            } else if runLength > 5 {
                score += 1
            }
        }
        return score
    }

    private static let finderLike: [Bool] = [true, false, true, true, true, false, true]

    private static func finderLikePenalty(_ line: [Bool]) -> Int {
        func isLight(_ range: Range<Int>) -> Bool {
            range.clamped(to: 0..<line.count).allSatisfy { !line[$0] }
        }
        var score = 0
        for start in 0..<max(0, line.count - 6) where line[start..<start + 7].elementsEqual(finderLike) {
            if isLight(start - 4..<start) || isLight(start + 7..<start + 11) { score += 40 }
        }
        return score
    }
}
