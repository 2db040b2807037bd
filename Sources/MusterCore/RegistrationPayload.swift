/// A walk-in registration at a kiosk: creates a lead in the campaign and checks it in, as one delta
/// so the registration and its check-in can never be separated.
///
/// Walk-ins with the same normalized email in the same campaign are one person.
public struct RegistrationPayload: DeltaPayload {
    public static let kind = DeltaKind.registration
    public var presence: PresencePayload
    public var email: String
    public var firstName: String
    public var lastName: String
    public var company: String
    /// The ticket code the kiosk printed for the walk-in.
    public var ticket: String

    public init(
        presence: PresencePayload,
        email: String,
        firstName: String,
        lastName: String,
        company: String,
        ticket: String
    ) {
        self.presence = presence
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.ticket = ticket
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(presence, email, firstName, lastName, company, ticket)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        self.init(
            presence: try reader.read(),
            email: try reader.read(),
            firstName: try reader.read(),
            lastName: try reader.read(),
            company: try reader.read(),
            ticket: try reader.readString(maxLength: 64)
        )
    }
}
