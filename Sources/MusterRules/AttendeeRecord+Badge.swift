extension AttendeeRecord {
    /// What the badge's QR code carries: the imported ticket code, else the walk-in ticket the
    /// kiosk issued, else the attendee key (the normalized email), so a door scanner always finds
    /// the person with the same lookup the kiosk uses.
    public var badgeCode: String { ticket ?? walkInTickets.first ?? key }
}
