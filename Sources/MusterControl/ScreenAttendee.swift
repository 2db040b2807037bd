public import MusterStore

/// The attendee as the public screen may know them: the person standing at it, just checked in (or
/// refused). Their first name to greet them, their last name's initial ("Ada L."), and the attendee key
/// the screen names them by in the note and self-service badge that follow (the daemon checks that key
/// against its own ``ScreenBinding``). No company, no ticket, no last name: there is no field for them.
///
/// On the wire it is the `attendee` object every client reads, with the company empty and no ticket.
/// The attendee key is the attendee's email, lowercased: the screen never shows it, only sends it back.
public struct ScreenAttendee: Sendable, Equatable {
    public var campaignID: String
    public var key: String
    public var firstName: String
    /// The last name's first character, or empty.
    public var lastInitial: String

    public init(campaignID: String, key: String, firstName: String, lastInitial: String) {
        self.campaignID = campaignID
        self.key = key
        self.firstName = firstName
        self.lastInitial = lastInitial
    }

    /// What the screen may know of `summary`.
    public init(_ summary: AttendeeSummary) {
        self.init(
            campaignID: summary.campaignID,
            key: summary.key,
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
        key = try fields.decode(String.self, forKey: .key)
        firstName = try fields.decode(String.self, forKey: .firstName)
        lastInitial = String(try fields.decode(String.self, forKey: .lastName).prefix(1))
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Field.self)
        try fields.encode(campaignID, forKey: .campaignID)
        try fields.encode(key, forKey: .key)
        try fields.encode(firstName, forKey: .firstName)
        try fields.encode(lastInitial, forKey: .lastName)
        // An older screen reads an attendee with a company; it gets an empty one.
        try fields.encode("", forKey: .company)
    }
}
