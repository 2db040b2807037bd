/// The words on one badge. The daemon fills it from the replica (the import's fields win over a
/// walk-in's, as everywhere); the renderer draws only what the layout names.
public struct BadgeContent: Sendable, Hashable {
    public var eventName: String
    public var firstName: String
    public var lastName: String
    public var company: String
    /// What the QR code carries: the ticket code when the attendee has one, else their key.
    public var code: String
    /// The ticket type as the list names it (issue 35); empty: none, and the band is not drawn.
    public var ticketType: String

    public init(
        eventName: String,
        firstName: String,
        lastName: String,
        company: String,
        code: String,
        ticketType: String = ""
    ) {
        self.eventName = eventName
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.code = code
        self.ticketType = ticketType
    }

    /// The text of a text field; nil for the QR code.
    func text(of field: BadgeField) -> String? {
        switch field {
        case .event: eventName
        case .firstName: firstName
        case .lastName: lastName
        case .company: company
        case .type: ticketType.uppercased()
        case .qr: nil
        }
    }
}
