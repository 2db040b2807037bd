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
        admitted: Bool
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
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID, key, email, firstName, lastName, company, ticket, salesforceID, status, admitted)
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
            admitted: try reader.read()
        )
    }
}
