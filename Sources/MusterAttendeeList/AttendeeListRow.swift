import Foundation
import MusterCore

/// One attendee as read from an import file, normalized.
///
/// Every source format is reduced to this shape so the store and the kiosk never need to know where a person
/// came from; `salesforceID` survives only so check-ins can be exported back to the right campaign member.
public struct AttendeeListRow: Sendable, Equatable {
    /// First line this person appeared on.
    public var line: Int
    /// Trimmed, original case.
    public var email: String
    /// Trimmed + lowercased (Unicode-aware lowercasing), the identity within a campaign.
    public var emailKey: String
    public var firstName: String
    public var lastName: String
    public var company: String
    /// Ticket/barcode code: Eventbrite `Barcode #` (else `Attendee #`), pretix `Secret`, generic `ticket`;
    /// Salesforce: none.
    public var ticket: String?
    /// Salesforce `Campaign Member ID` or `Id` (15/18-char), nil otherwise.
    public var salesforceID: String?
    /// Source status text (Member Status / Attendee Status / pretix status if any).
    public var status: String?
    /// False for refunded / cancelled / canceled / not attending / deleted / void statuses.
    public var admitted: Bool
    /// The ticket's type, order, add-ons, attention and validity; nil when the list says none.
    public var details: AttendeeDetails?

    /// `emailKey` defaults to the trimmed, lowercased `email`; pass it only to reproduce a stored row exactly.
    public init(
        line: Int,
        email: String,
        emailKey: String? = nil,
        firstName: String = "",
        lastName: String = "",
        company: String = "",
        ticket: String? = nil,
        salesforceID: String? = nil,
        status: String? = nil,
        admitted: Bool = true,
        details: AttendeeDetails? = nil
    ) {
        self.line = line
        self.email = email
        self.emailKey = emailKey ?? EmailAddress.key(email)
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.ticket = ticket
        self.salesforceID = salesforceID
        self.status = status
        self.admitted = admitted
        self.details = details
    }

    /// Whether a source status lets the person in. Unknown or missing statuses admit: the organizer imported them.
    package static func isAdmitted(status: String?, format: AttendeeListFormat) -> Bool {
        guard let status else { return true }
        let normalized = AttendeeListText.comparable(status, spaceLike: ["_", "-"])
        if notAdmittedStatuses.contains(normalized) { return false }
        return !(format == .pretix && (normalized == "c" || normalized == "e"))
    }

    private static let notAdmittedStatuses: Set<String> = [
        "refunded", "cancelled", "canceled", "not attending", "deleted", "void", "voided", "expired",
    ]

    /// Folds a later row for the same person into this one.
    ///
    /// If only the later row admits the person (say a refunded ticket followed by a valid one), its ticket, status
    /// and Salesforce ID win, because those identify the entry that is actually valid. Otherwise this row's values
    /// stay and only its empty fields are filled in.
    mutating func absorb(_ later: AttendeeListRow) {
        if !admitted && later.admitted {
            admitted = true
            ticket = later.ticket ?? ticket
            status = later.status ?? status
            salesforceID = later.salesforceID ?? salesforceID
        }
        if firstName.isEmpty { firstName = later.firstName }
        if lastName.isEmpty { lastName = later.lastName }
        if company.isEmpty { company = later.company }
        if ticket == nil { ticket = later.ticket }
        if salesforceID == nil { salesforceID = later.salesforceID }
        if status == nil { status = later.status }
        absorbDetails(later.details)
    }

    /// A later row's details: its empty fields filled, attention if either row asks for it. A later row
    /// of the same order with another type is an add-on bought with this ticket: pretix's check-in list
    /// writes each add-on position as a row of its own under its parent's email, so its product becomes
    /// one of this ticket's add-ons rather than a second ticket the email key would fold away.
    mutating func absorbDetails(_ later: AttendeeDetails?) {
        guard let later else { return }
        var merged = details ?? AttendeeDetails()
        if let type = later.ticketType, let order = later.order, order == merged.order, let own = merged.ticketType,
            type != own, !merged.addons.contains(type), merged.addons.count < AttendeeDetails.maxAddons
        {
            merged.addons.append(type)
        }
        merged.ticketType = merged.ticketType ?? later.ticketType
        merged.order = merged.order ?? later.order
        for addon in later.addons
        where !merged.addons.contains(addon) && merged.addons.count < AttendeeDetails.maxAddons {
            merged.addons.append(addon)
        }
        merged.attention = merged.attention || later.attention
        merged.attentionText = merged.attentionText ?? later.attentionText
        // The validity as a pair, so one row's start never meets another row's end.
        if merged.validFromMillis == nil && merged.validUntilMillis == nil {
            (merged.validFromMillis, merged.validUntilMillis) = (later.validFromMillis, later.validUntilMillis)
        }
        details = merged.isEmpty ? nil : merged
    }
}
