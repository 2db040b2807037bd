/// One imported attendee of a campaign. Organizer only. Fields are last-writer-wins by (hlc, author, seq).
///
/// The identity within a campaign is ``key``, the normalized email, so that a re-import updates the
/// same person and a walk-in who registers with the same email is the same person.
public struct AttendeePayload: DeltaPayload {
    public static let kind = DeltaKind.attendee
    public var campaignID: String
    public var key: String
    public var email: String
    public var firstName: String
    public var lastName: String
    public var company: String
    public var ticket: String?
    public var salesforceID: String?
    public var status: String?
    /// False for refunded or cancelled tickets: the kiosk sends the person to the staff desk.
    public var admitted: Bool
    /// nil: the list said nothing more (never an empty ``AttendeeDetails``: that has no encoding).
    public var details: AttendeeDetails?

    /// The byte before the details in the encoding ('D'): a later tail gets a tag of its own.
    public static let detailsTag: UInt8 = 0x44

    public init(
        campaignID: String,
        key: String,
        email: String,
        firstName: String,
        lastName: String,
        company: String,
        ticket: String?,
        salesforceID: String?,
        status: String?,
        admitted: Bool,
        details: AttendeeDetails? = nil
    ) {
        self.campaignID = campaignID
        self.key = key
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.ticket = ticket
        self.salesforceID = salesforceID
        self.status = status
        self.admitted = admitted
        self.details = details.flatMap { $0.isEmpty ? nil : $0 }
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID, key, email, firstName, lastName, company, ticket, salesforceID, status, admitted)
        if let details {
            writer.write(Self.detailsTag)
            details.encode(into: &writer)
        }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        self.init(
            campaignID: try reader.readString(maxLength: Limits.maxCampaignIDBytes),
            key: try reader.read(),
            email: try reader.read(),
            firstName: try reader.read(),
            lastName: try reader.read(),
            company: try reader.read(),
            ticket: try reader.read(),
            salesforceID: try reader.read(),
            status: try reader.read(),
            admitted: try reader.read(),
            details: try reader.readTail { (reader) throws(DecodeError) -> AttendeeDetails in
                let tag = try reader.readUInt8()
                guard tag == Self.detailsTag else { throw .unsupportedVersion(tag) }
                return try AttendeeDetails(from: &reader)
            }
        )
    }
}
