import CQRencode

extension QRCode {
    /// How much of the symbol may be damaged (smudged screen, glare, a finger, a scuffed badge) and
    /// still be read.
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

        /// The level as libqrencode names it.
        var libraryLevel: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }

        /// The most bytes a version 40 symbol holds in byte mode at this level (ISO/IEC 18004
        /// Table 7), so that a refusal can say how much would have fit.
        public var maximumBytes: Int {
            switch self {
            case .low: 2953
            case .medium: 2331
            case .quartile: 1663
            case .high: 1273
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
