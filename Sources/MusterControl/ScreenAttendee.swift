public import MusterRules

/// The attendee as the public screen may know them: the person standing at it, just checked in (or
/// refused). Their first name to greet them, their last name's initial ("Ada L."), and the handle the
/// screen names them by in the note and self-service badge that follow (``ScreenHandles``: not the
/// attendee key, which is their email; the daemon turns it back into the key of the attendee it bound,
/// ``ScreenBinding``). No company, no ticket, no last name, no email: there is no field for them.
///
/// On the wire it is the `attendee` object every client reads, the handle in its `key`, with the company
/// empty and no ticket.
public struct ScreenAttendee: Sendable, Equatable {
    public var campaignID: String
    /// What the screen sends back to name this attendee (an attendee key when a screen runs as staff).
    public var handle: String
    public var firstName: String
    /// The last name's first character, or empty.
    public var lastInitial: String

    public init(campaignID: String, handle: String, firstName: String, lastInitial: String) {
        self.campaignID = campaignID
        self.handle = handle
        self.firstName = firstName
        self.lastInitial = lastInitial
    }

    /// What the screen may know of `summary`, named by `handles`.
    public init(_ summary: AttendeeSummary, handles: ScreenHandles) {
        self.init(
            campaignID: summary.campaignID,
            handle: handles.handle(for: summary.key),
            firstName: summary.firstName,
            lastInitial: String(summary.lastName.prefix(1))
        )
    }
}

extension ScreenAttendee: Codable {
    private enum Field: String, CodingKey {
        case campaignID, key, firstName, lastName, company
    }

    /// Reads a screen's attendee, or staff's whole one (a screen running as staff) cut to the same.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Field.self)
        campaignID = try fields.decode(String.self, forKey: .campaignID)
        handle = try fields.decode(String.self, forKey: .key)
        firstName = try fields.decode(String.self, forKey: .firstName)
        lastInitial = String(try fields.decode(String.self, forKey: .lastName).prefix(1))
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Field.self)
        try fields.encode(campaignID, forKey: .campaignID)
        try fields.encode(handle, forKey: .key)
        try fields.encode(firstName, forKey: .firstName)
        try fields.encode(lastInitial, forKey: .lastName)
        // An older screen reads an attendee with a company; it gets an empty one.
        try fields.encode("", forKey: .company)
    }
}
