extension QRCode {
    /// The symbol as lines of Unicode half blocks (`▀` `▄` `█` and space), two module rows per
    /// line, so that it keeps its square shape in a terminal whose cells are twice as tall as
    /// they are wide.
    ///
    /// With `darkBackground` (the default, for the usual light-on-dark terminal) the *light*
    /// modules and the quiet zone are drawn as blocks in the text colour and the dark modules
    /// are left as background: a phone needs dark modules on a light ground, and drawing the
    /// dark ones on a black screen would show it an inverted code many readers reject. Pass
    /// `false` for a light background or for paper, where the dark modules are drawn instead.
    /// When the row count is odd the last line's lower half is left as background.
    ///
    /// Only those four characters and newlines are emitted — never escape sequences, which the
    /// kiosk screen does not allow — and there is no trailing newline.
    ///
    /// - Parameter quietZone: light modules around the symbol; the standard asks for 4, and most
    ///   phones cope with 2. Negative values count as 0.
    public func terminalText(quietZone: Int = 2, darkBackground: Bool = true) -> String {
        let margin = max(0, quietZone)
        let span = -margin..<(size + margin)
        // Whether the character cell half for module (x, y) is filled with a block.
        func inked(_ x: Int, _ y: Int) -> Bool {
            guard span.contains(y) else { return false }
            return self[x, y] != darkBackground
        }
        var lines: [String] = []
        for top in stride(from: span.lowerBound, to: span.upperBound, by: 2) {
            var line = ""
            for x in span {
                switch (inked(x, top), inked(x, top + 1)) {
                case (true, true): line.append("█")
                case (true, false): line.append("▀")
                case (false, true): line.append("▄")
                case (false, false): line.append(" ")
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
