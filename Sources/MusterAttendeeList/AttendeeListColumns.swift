import Foundation

/// Where each attendee attribute lives in a given file's header, resolved once per import.
struct AttendeeListColumns {
    static let emailAliases = ["email", "e-mail", "email address", "e-mail address"]
    static let salesforceIDAliases = ["campaign member id", "member id", "id"]
    static let genericFirstNameAliases = ["first name", "firstname", "given name"]
    static let genericLastNameAliases = ["last name", "lastname", "family name", "surname"]
    static let genericFullNameAliases = ["name", "full name"]
    static let genericCompanyAliases = ["company", "organization", "organisation"]
    static let genericTicketAliases = ["ticket", "ticket code"]

    var email: Int
    var firstName: Int?
    var lastName: Int?
    /// A single name column, split on its last space; used when the first/last columns are absent or empty.
    var fullName: Int?
    var company: Int?
    var ticket: Int?
    /// Used when `ticket` is absent or empty (Eventbrite `Attendee #` behind `Barcode #`).
    var fallbackTicket: Int?
    var salesforceID: Int?
    var status: Int?
    /// The ticket's type, order, add-ons, attention and validity (issue 35).
    var details = AttendeeListDetails(format: .salesforce) { _ in nil }

    /// Every column the import reads; only these are checked for length.
    var used: [Int] {
        [email, firstName, lastName, fullName, company, ticket, fallbackTicket, salesforceID, status].compactMap { $0 }
            + details.used
    }

    /// Nil when the header has no email column.
    init?(format: AttendeeListFormat, header: [String]) {
        let names = header.map(Self.normalize)
        guard let email = Self.find(Self.emailAliases, in: names) else { return nil }
        self.email = email
        func column(_ aliases: [String]) -> Int? { Self.find(aliases, in: names) }
        switch format {
        case .salesforce:
            firstName = column(["first name", "firstname"])
            lastName = column(["last name", "lastname"])
            company = column(["company / account", "company", "account name", "companyoraccount"])
            salesforceID = column(Self.salesforceIDAliases)
            status = column(["member status", "status"])
        case .eventbrite:
            firstName = column(["first name"])
            lastName = column(["last name"])
            company = column(["company"])
            ticket = column(["barcode #"])
            fallbackTicket = column(["attendee #"])
            status = column(["attendee status"])
        case .pretix:
            firstName = column(["attendee name: given name"])
            lastName = column(["attendee name: family name"])
            fullName = column(["attendee name"])
            company = column(["company"])
            ticket = column(["secret"])
            status = column(["status", "order status"])
        case .generic:
            firstName = column(Self.genericFirstNameAliases)
            lastName = column(Self.genericLastNameAliases)
            fullName = column(Self.genericFullNameAliases)
            company = column(Self.genericCompanyAliases)
            ticket = column(Self.genericTicketAliases)
            status = column(["status"])
        }
        details = AttendeeListDetails(format: format, find: column)
    }

    /// Lowercased, trimmed, `_` read as a space and inner runs of spaces collapsed, so `First_Name`, ` first name `
    /// and `FIRST  NAME` all match `first name`.
    static func normalize(_ name: String) -> String {
        AttendeeListText.comparable(name, spaceLike: ["_"])
    }

    /// Index of the first column matching the earliest alias (aliases are in order of preference).
    static func find(_ aliases: [String], in normalizedNames: [String]) -> Int? {
        for alias in aliases {
            if let index = normalizedNames.firstIndex(of: alias) { return index }
        }
        return nil
    }
}
