import Foundation
import MusterCore
import MusterTestSupport
import Testing

@testable import MusterAttendeeList

/// pretix's check-in list read through its REST API (issue 35): the JSON as pretix 2026.8 answers it
/// (recorded from the lab's pretix, trimmed), mapped to the same rows a CSV import makes.
@Suite("pretix API import")
struct PretixAttendeesTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    static let items = """
        [{"id": 1, "name": {"en": "General"}, "admission": true, "checkin_text": null, "variations": []},
         {"id": 2, "name": {"de": "VIP-Karte", "en": "VIP"}, "admission": true, "checkin_text": null,
          "variations": [{"id": 5, "value": {"en": "Friday"}, "checkin_text": "Wristband B"}]},
         {"id": 3, "name": {"en": "Speaker"}, "admission": true, "checkin_text": "Greet: keynote speaker",
          "variations": []},
         {"id": 4, "name": {"en": "T-shirt"}, "admission": false, "checkin_text": null, "variations": []}]
        """
    static let orders = """
        [{"code": "WCZJW", "email": "jose@example.org", "checkin_text": null},
         {"code": "PARTY", "email": "buyer@example.org", "checkin_text": "Birthday group"}]
        """
    static let positions = """
        [{"id": 2, "order": "WCZJW", "positionid": 1, "item": 2, "variation": 5, "attendee_name": "José Müller",
          "attendee_name_parts": {"_scheme": "given_family", "given_name": "José", "family_name": "Müller"},
          "attendee_email": "jose@example.org", "secret": "s-jose", "addon_to": null, "require_attention": false,
          "order__status": "p", "valid_from": "2026-12-04T08:00:00Z", "valid_until": null},
         {"id": 3, "order": "WCZJW", "positionid": 2, "item": 4, "variation": null, "attendee_name": "José Müller",
          "attendee_email": null, "secret": "s-shirt", "addon_to": 2, "require_attention": false,
          "order__status": "p"},
         {"id": 4, "order": "PARTY", "positionid": 1, "item": 1, "attendee_name": "Ada Lovelace",
          "attendee_name_parts": {"_legacy": "Ada Lovelace"}, "attendee_email": null, "secret": "s-ada",
          "addon_to": null, "require_attention": true, "order__status": "c"},
         {"id": 7, "order": "PARTY", "positionid": 2, "item": 3, "attendee_name": "Łukasz Żółw",
          "attendee_name_parts": {"given_name": "Łukasz", "family_name": "Żółw"},
          "attendee_email": "lukasz@example.org", "secret": "s-lukasz", "addon_to": null,
          "require_attention": true, "order__status": "p"}]
        """

    static func list() throws -> AttendeeListImport {
        try AttendeeListImport.pretix(
            positions: try decode([PretixRecords.Position].self, positions),
            items: try decode([PretixRecords.Item].self, items),
            orders: try decode([PretixRecords.Order].self, orders)
        )
    }

    @Test func positionsBecomeTheRowsACSVWouldMakeAndMore() throws {
        let list = try Self.list()
        #expect(list.format == .pretix)
        #expect(list.rows.map(\.email) == ["jose@example.org", "buyer@example.org", "lukasz@example.org"])
        let jose = list.rows[0]
        #expect(jose.firstName == "José" && jose.lastName == "Müller" && jose.ticket == "s-jose" && jose.line == 2)
        #expect(
            jose.details
                == AttendeeDetails(
                    ticketType: "VIP – Friday",
                    order: "WCZJW",
                    addons: ["T-shirt"],
                    attentionText: "Wristband B",
                    validFromMillis: 1_796_371_200_000
                ),
            "the variation's text is staff's even without attention"
        )
        // No attendee email: the order's. A cancelled order is kept and not admitted, as from a CSV.
        let ada = list.rows[1]
        #expect(ada.firstName == "Ada" && ada.lastName == "Lovelace")
        #expect(!ada.admitted)
        #expect(ada.details?.attention == true && ada.details?.attentionText == "Birthday group")
        #expect(list.rows[2].details?.attentionText == "Birthday group · Greet: keynote speaker")
    }

    @Test func aBadEmailNamesItsPosition() throws {
        let positions = Self.positions.replacingOccurrences(of: "lukasz@example.org", with: "not an email")
        let error = thrownError { () throws(AttendeeListError) in
            try AttendeeListImport.pretix(
                positions: (try? Self.decode([PretixRecords.Position].self, positions)) ?? [],
                items: (try? Self.decode([PretixRecords.Item].self, Self.items)) ?? [],
                orders: (try? Self.decode([PretixRecords.Order].self, Self.orders)) ?? []
            )
        }
        #expect(error?.line == 7)
    }

    @Test func aTicketWithoutAnyEmailIsSkippedAndReported() throws {
        let orders = Self.orders.replacingOccurrences(of: "\"buyer@example.org\"", with: "null")
        let list = try AttendeeListImport.pretix(
            positions: try Self.decode([PretixRecords.Position].self, Self.positions),
            items: try Self.decode([PretixRecords.Item].self, Self.items),
            orders: try Self.decode([PretixRecords.Order].self, orders)
        )
        #expect(list.skipped.map(\.line) == [4])
        #expect(list.rows.count == 2)
    }
}
