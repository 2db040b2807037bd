/// How a text field is set: its nominal size on a 62 mm wide badge (scaled with the badge's
/// width), its weight, and how far it may shrink before it wraps.
struct BadgeTextStyle: Sendable {
    /// Points on a 62 mm wide badge.
    var nominalPoints: Double
    var bold: Bool
    /// Lines the field may take when it wraps; names get two, the event and company one.
    var maximumLines: Int

    static func of(_ field: BadgeField) -> BadgeTextStyle {
        switch field {
        case .event: BadgeTextStyle(nominalPoints: 11, bold: true, maximumLines: 1)
        case .firstName: BadgeTextStyle(nominalPoints: 30, bold: true, maximumLines: 2)
        case .lastName: BadgeTextStyle(nominalPoints: 18, bold: false, maximumLines: 2)
        case .company: BadgeTextStyle(nominalPoints: 12, bold: false, maximumLines: 2)
        case .type: BadgeTextStyle(nominalPoints: 16, bold: true, maximumLines: 1)
        case .qr: BadgeTextStyle(nominalPoints: 0, bold: false, maximumLines: 0)
        }
    }

    /// The families asked for first; fontconfig falls back per character to whatever installed
    /// font covers it (Noto Sans CJK for Chinese, Noto Sans Arabic for Arabic, DejaVu otherwise).
    static let families = "Noto Sans, DejaVu Sans, sans-serif"

    /// Shrinking stops here (a fraction of the nominal size): below it a name stops being read
    /// across a room, and wrapping onto a second line is the better trade.
    static let smallestSingleLine = 0.6
    /// The smallest size a wrapped field may take before it is ellipsized (and reported).
    static let smallestWrapped = 0.4
}
