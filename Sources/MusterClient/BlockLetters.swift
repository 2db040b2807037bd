/// Capital letters five lines tall, drawn with full blocks, for the large-type welcome.
///
/// Plain lines of `█` and spaces: no escape sequence, no double-height trick a braille display would
/// misread. The plain sentence always follows, so a screen reader has the words; this is only for
/// people who read large print (and a spot's six-digit code). Letters it has no glyph for (anything but A–Z,
/// 0–9 and space) are left out,
/// so the catalog's ``KioskMessage/welcomeWord`` is written in plain capitals in every language.
public enum BlockLetters {
    public static let height = 5

    /// The five lines of `word`, letters one column apart.
    public static func lines(_ word: String) -> [String] {
        let glyphs = word.uppercased().compactMap { glyph[$0] }
        guard !glyphs.isEmpty else { return [] }
        return (0..<height).map { row in
            glyphs.map { $0[row] }.joined(separator: " ")
                .map { $0 == "#" ? "█" : " " }
                .reduce(into: "") { $0.append($1) }
                .trimmingTrailingSpaces()
        }
    }

    // swift-format-ignore
    static let glyph: [Character: [String]] = [
        "A": [" ### ", "#   #", "#####", "#   #", "#   #"],
        "B": ["#### ", "#   #", "#### ", "#   #", "#### "],
        "C": [" ####", "#    ", "#    ", "#    ", " ####"],
        "D": ["#### ", "#   #", "#   #", "#   #", "#### "],
        "E": ["#####", "#    ", "#### ", "#    ", "#####"],
        "F": ["#####", "#    ", "#### ", "#    ", "#    "],
        "G": [" ####", "#    ", "#  ##", "#   #", " ####"],
        "H": ["#   #", "#   #", "#####", "#   #", "#   #"],
        "I": ["###", " # ", " # ", " # ", "###"],
        "J": ["  ###", "    #", "    #", "#   #", " ### "],
        "K": ["#   #", "#  # ", "###  ", "#  # ", "#   #"],
        "L": ["#    ", "#    ", "#    ", "#    ", "#####"],
        "M": ["#   #", "## ##", "# # #", "#   #", "#   #"],
        "N": ["#   #", "##  #", "# # #", "#  ##", "#   #"],
        "O": [" ### ", "#   #", "#   #", "#   #", " ### "],
        "P": ["#### ", "#   #", "#### ", "#    ", "#    "],
        "Q": [" ### ", "#   #", "# # #", "#  # ", " ## #"],
        "R": ["#### ", "#   #", "#### ", "#  # ", "#   #"],
        "S": [" ####", "#    ", " ### ", "    #", "#### "],
        "T": ["#####", "  #  ", "  #  ", "  #  ", "  #  "],
        "U": ["#   #", "#   #", "#   #", "#   #", " ### "],
        "V": ["#   #", "#   #", "#   #", " # # ", "  #  "],
        "W": ["#   #", "#   #", "# # #", "## ##", "#   #"],
        "X": ["#   #", " # # ", "  #  ", " # # ", "#   #"],
        "Y": ["#   #", " # # ", "  #  ", "  #  ", "  #  "],
        "Z": ["#####", "   # ", "  #  ", " #   ", "#####"],
        "0": [" ### ", "#  ##", "# # #", "##  #", " ### "],
        "1": ["  #  ", " ##  ", "  #  ", "  #  ", " ### "],
        "2": [" ### ", "#   #", "  ## ", " #   ", "#####"],
        "3": ["#### ", "    #", " ### ", "    #", "#### "],
        "4": ["#   #", "#   #", "#####", "    #", "    #"],
        "5": ["#####", "#    ", "#### ", "    #", "#### "],
        "6": [" ### ", "#    ", "#### ", "#   #", " ### "],
        "7": ["#####", "    #", "   # ", "  #  ", "  #  "],
        "8": [" ### ", "#   #", " ### ", "#   #", " ### "],
        "9": [" ### ", "#   #", " ####", "    #", " ### "],
        " ": ["  ", "  ", "  ", "  ", "  "],
    ]
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
