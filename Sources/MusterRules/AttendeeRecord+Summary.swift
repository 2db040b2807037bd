extension AttendeeRecord {
    /// What a kiosk may show of this attendee (the control protocol's answer and the kiosk screen).
    /// The ticket is the imported one, else the first walk-in ticket.
    public var summary: AttendeeSummary {
        AttendeeSummary(
            campaignID: campaignID,
            key: key,
            firstName: firstName,
            lastName: lastName,
            company: company,
            ticket: ticket ?? walkInTickets.first,
            ticketType: details?.ticketType,
            attention: details.flatMap { $0.attention ? $0.attentionText ?? Self.attentionWithoutText : nil }
        )
    }

    /// What staff read of an attention ticket whose list gave no text.
    public static let attentionWithoutText = "the list asks staff to see this attendee in person"
}
