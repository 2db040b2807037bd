import Foundation
import MusterCore
import MusterTestSupport
import Testing

@testable import MusterAttendeeList

/// What real exports say of a ticket (issue 35): type, order, add-ons, attention and validity, read
/// from generic, Eventbrite and pretix lists as they come (BOM, CRLF, quoted commas), with line errors.
@Suite("Attendee list: ticket details")
struct AttendeeListDetailsTests {
    private func parse(_ text: String) throws(AttendeeListError) -> AttendeeListImport {
        try AttendeeListImport.parse(Data(text.utf8))
    }

    @Test func aGenericListWithEveryDetail() throws {
        // A spreadsheet saved as CSV: BOM, CRLF, a quoted comma inside the attention text.
        let text =
            "\u{FEFF}email,first_name,last_name,type,order,addons,attention,attention_text,valid_from,valid_until\r\n"
            + "ada@x.org,Ada,Lovelace,VIP,A1,T-shirt | Dinner|T-shirt,yes,\"Greet her, keynote\",2026-12-01,2026-12-02\r\n"
            + "bob@x.org,Bob,Byte,General,A1,,,,2026-12-01T09:00:00+01:00,\r\n"
            + "cy@x.org,Cy,Old,,,,,,,\r\n"
        let list = try parse(text)
        #expect(list.format == .generic)
        let ada = try #require(list.rows.first?.details)
        #expect(ada.ticketType == "VIP" && ada.order == "A1")
        #expect(ada.addons == ["T-shirt", "Dinner"], "split by |, trimmed, each once")
        #expect(ada.attention && ada.attentionText == "Greet her, keynote")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let start = calendar.date(from: DateComponents(year: 2026, month: 12, day: 1))!
        #expect(ada.validFromMillis == Int64(start.timeIntervalSince1970 * 1000))
        // A date alone as the end: valid through that day.
        let end = calendar.date(from: DateComponents(year: 2026, month: 12, day: 3))!
        #expect(ada.validUntilMillis == Int64(end.timeIntervalSince1970 * 1000))
        #expect(list.rows[1].details?.validFromMillis == 1_796_112_000_000, "ISO 8601 with its offset")
        #expect(list.rows[1].details?.attention == false)
        #expect(list.rows[2].details == nil, "no details: the attendee encodes as before")
    }

    @Test func anOldFormatListImportsAsBefore() throws {
        let list = try parse("email,first_name,last_name,company,ticket\nada@x.org,Ada,L,ACME,T1\n")
        #expect(list.rows.map(\.details) == [nil])
    }

    @Test func eventbriteTicketTypeAndOrder() throws {
        let text =
            "Order #,First Name,Last Name,Email,Ticket Type,Attendee #,Attendee Status,Barcode #\r\n"
            + "1234567890,Mary,Jackson,mary@nasa.example,\"Speaker, Day 1\",2345678903,Attending,99\r\n"
        let row = try #require(try parse(text).rows.first)
        #expect(row.details == AttendeeDetails(ticketType: "Speaker, Day 1", order: "1234567890"))
    }

    @Test func pretixProductsAttentionAndAddOnRows() throws {
        // pretix's check-in list writes an add-on position as a row of its own, under its parent's
        // email and order; the exporter's language says "Ja" for attention.
        let text = """
            Order code,Attendee name,Product,Price,Checked in,Secret,E-mail,Company,Requires special attention
            ABC12,Ana López,VIP – Friday,250.00,,s1,ana@x.org,Café,Ja
            ABC12,Ana López,T-shirt,20.00,,s2,ana@x.org,Café,Nein
            DEF34,Jean Picard,Conference ticket,250.00,,s3,jl@x.org,,No
            """
        let list = try parse(text)
        #expect(list.format == .pretix)
        #expect(list.rows.count == 2)
        #expect(
            list.rows[0].details
                == AttendeeDetails(ticketType: "VIP – Friday", order: "ABC12", addons: ["T-shirt"], attention: true)
        )
        #expect(list.rows[0].ticket == "s1", "the ticket's own secret, not the add-on's")
        #expect(list.rows[1].details == AttendeeDetails(ticketType: "Conference ticket", order: "DEF34"))
    }

    @Test(arguments: [
        ("valid_from", "tomorrow", "a date"),
        ("attention", "maybe", "yes or no"),
        ("valid_until", "2026-01-01", "a time after valid from"),
    ])
    func aBadDetailNamesItsLineAndColumn(column: String, value: String, expected: String) {
        let text =
            "email,valid_from,valid_until,attention\nok@x.org,,,\nbad@x.org,"
            + (column == "valid_from" ? value : "2026-02-01") + ","
            + (column == "valid_until" ? value : "") + "," + (column == "attention" ? value : "") + "\n"
        let error = thrownError { () throws(AttendeeListError) in try parse(text) }
        #expect(error?.line == 3)
        #expect(error?.explanation.contains("column \"\(column)\"") == true, "\(String(describing: error))")
        #expect(error?.explanation.contains(expected) == true)
    }

    @Test func tooManyAddOnsIsAnError() {
        let addons = (0...AttendeeDetails.maxAddons).map { "A\($0)" }.joined(separator: "|")
        let error = thrownError { () throws(AttendeeListError) in try parse("email,addons\na@x.org,\(addons)\n") }
        #expect(error?.line == 2)
    }
}
