/// A rendered badge: the file's bytes and what the renderer had to do to make the words fit.
///
/// Nothing is cut silently: a field that still did not fit at the smallest size and two lines
/// is ellipsized *and listed here*, and a field with characters no installed font has is listed
/// too, so the daemon can log it and the preview command can say it.
public struct BadgeRendering: Sendable {
    public let format: BadgeFormat
    public let bytes: [UInt8]
    /// Fields shortened with an ellipsis because even the smallest size on two lines was too wide.
    public let shortened: [BadgeField]
    /// Fields holding characters that no installed font can draw (shown as boxes).
    public let missingGlyphs: [BadgeField]
}
