import MusterControl
public import MusterRules
import MusterTime

/// The organizer/staff view of an attendee for `--json` output.
public struct AttendeeJSON: Encodable {
    public let email: String
    public let firstName: String
    public let lastName: String
    public let company: String
    public let ticket: String?
    public let salesforceID: String?
    public let admitted: Bool
    public let walkIn: Bool
    public let checkedIn: Bool
    public let inside: Bool
    public let checkedInAt: String?
    public let kiosk: String?
    public let location: String?
    /// The list's ticket details (staff only; absent when the list gave none).
    public let ticketType: String?
    public let order: String?
    public let addons: [String]?
    public let attention: Bool?
    public let attentionText: String?
    public let validFrom: String?
    public let validUntil: String?

    public init(_ record: AttendeeRecord) {
        email = record.email
        firstName = record.firstName
        lastName = record.lastName
        company = record.company
        ticket = record.ticket ?? record.walkInTickets.first
        salesforceID = record.salesforceID
        admitted = record.admitted
        walkIn = record.walkIn
        checkedIn = record.isCheckedIn
        inside = record.isInside
        checkedInAt = record.firstArrival.map { ClockText.iso8601(millis: Int64(clamping: $0.hlc.physicalMillis)) }
        kiosk = record.firstArrival?.kioskName
        location = record.firstArrival?.location
        let details = record.details
        ticketType = details?.ticketType
        order = details?.order
        addons = details.map(\.addons)
        attention = details?.attention
        attentionText = details?.attentionText
        validFrom = details?.validFromMillis.map { ClockText.iso8601(millis: $0) }
        validUntil = details?.validUntilMillis.map { ClockText.iso8601(millis: $0) }
    }
}
