extension QRCode {
    /// How much of the symbol may be damaged (smudged screen, glare, a finger) and still be read.
    ///
    /// Higher levels spend more of the symbol on Reed–Solomon parity, so the same payload needs a
    /// larger version. On a terminal, where every module is a character cell, `.medium` is the usual
    /// compromise between a code that fits the screen and one a phone reads at an angle.
    public enum ErrorCorrection: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// About 7 % of codewords can be restored.
        case low
        /// About 15 % of codewords can be restored.
        case medium
        /// About 25 % of codewords can be restored.
        case quartile
        /// About 30 % of codewords can be restored.
        case high

        /// The two bits the format information carries for this level (ISO/IEC 18004 Table 12);
        /// deliberately not in the order of strength.
        var formatBits: Int {
            switch self {
            case .low: 0b01
            case .medium: 0b00
            case .quartile: 0b11
            case .high: 0b10
            }
        }

        /// The letter the standard and every capacity table use.
        public var description: String {
            switch self {
            case .low: "L"
            case .medium: "M"
            case .quartile: "Q"
            case .high: "H"
            }
        }
    }
}
