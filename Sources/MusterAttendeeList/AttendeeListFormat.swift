import Foundation

/// Which tool produced an attendee list; decides which columns hold names, ticket codes and status.
///
/// Organizers upload whatever their tool exports, without renaming columns, so the format is recognized from the
/// header alone (case-insensitive, surrounding spaces ignored, `_` treated as a space).
public enum AttendeeListFormat: String, Sendable, Equatable {
    /// Salesforce campaign-member report (`Email` plus `Campaign Member ID`, `Member ID` or `Id`).
    case salesforce
    /// Eventbrite attendee report (`Order #` plus `Attendee #` or `Barcode #`).
    case eventbrite
    /// pretix check-in list export (`Order code` plus `Secret`).
    case pretix
    /// A hand-made spreadsheet: `email` plus any of `first_name`, `last_name`, `name`, `company`, `ticket`,
    /// and the ticket's details: `type`, `order`, `addons` (split by `|`), `attention`, `attention_text`,
    /// `valid_from`, `valid_until`.
    case generic

    /// The format whose signature columns appear in `header`, or nil when no known format fits (e.g. no email
    /// column, or an email column beside columns none of the formats use).
    ///
    /// Checked from most to least specific: pretix, Eventbrite, Salesforce, generic. A header with nothing but an
    /// email column is accepted as generic so a plain list of addresses can be imported.
    public static func detect(header: [String]) -> AttendeeListFormat? {
        let names = header.map(AttendeeListColumns.normalize)
        guard AttendeeListColumns.find(AttendeeListColumns.emailAliases, in: names) != nil else { return nil }
        func has(_ aliases: [String]) -> Bool { AttendeeListColumns.find(aliases, in: names) != nil }
        if has(["order code"]) && has(["secret"]) { return .pretix }
        if has(["order #"]) && has(["attendee #", "barcode #"]) { return .eventbrite }
        if has(AttendeeListColumns.salesforceIDAliases) { return .salesforce }
        let genericColumns =
            AttendeeListColumns.genericFirstNameAliases + AttendeeListColumns.genericLastNameAliases
            + AttendeeListColumns.genericFullNameAliases + AttendeeListColumns.genericCompanyAliases
            + AttendeeListColumns.genericTicketAliases + AttendeeListDetails.genericAliases
        if has(genericColumns) || names.filter({ !$0.isEmpty }).count == 1 { return .generic }
        return nil
    }
}
