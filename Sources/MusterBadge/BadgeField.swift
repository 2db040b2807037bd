/// One thing a badge can show. The config lists the fields in the order they are drawn, top to
/// bottom; the QR code, when listed, always sits at the bottom where a door scanner finds it.
public enum BadgeField: String, Sendable, Hashable, CaseIterable {
    /// The campaign's name, small, at the top.
    case event
    /// The first name, the largest text: what people read across a room.
    case firstName = "first_name"
    case lastName = "last_name"
    case company
    /// The ticket type (issue 35), as a word in a full-width band: white on black, so a VIP badge is
    /// told from across the room in words, never by colour alone.
    case type
    /// The ticket code as a QR code, for the door scanner (issue 16) and lead retrieval.
    case qr

    /// The default badge: every field.
    public static let standard: [BadgeField] = [.event, .firstName, .lastName, .company, .qr]
}
