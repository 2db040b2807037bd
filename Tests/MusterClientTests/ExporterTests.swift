import Foundation
import MusterAttendeeList
import MusterControl
import MusterCore
import MusterDaemon
import MusterTime
import Testing

@testable import MusterClient
@testable import MusterRules

private let kioskA = AuthorID(bytes: [UInt8](repeating: 0xA1, count: 32))!
private let kioskB = AuthorID(bytes: [UInt8](repeating: 0xB2, count: 32))!
private let base: UInt64 = 1_795_338_000_000

private func presence(
    _ kind: DeltaKind,
    seq: UInt64,
    at offset: UInt64 = 0,
    kiosk: String = "Hall A",
    location: String = "North door",
    status: String = "Attended",
    author: AuthorID = kioskA
) -> PresenceRecord {
    PresenceRecord(
        ref: DeltaRef(author: author, seq: seq),
        kind: kind,
        hlc: HLC(physicalMillis: base + offset, logical: 0),
        kioskName: kiosk,
        location: location,
        memberStatus: status
    )
}

private func attendee(
    _ email: String,
    first: String = "First",
    last: String = "Last",
    company: String = "Co",
    ticket: String? = nil,
    walkInTickets: [String] = [],
    salesforceID: String? = nil,
    imported: Bool = true,
    walkIn: Bool = false,
    presences: [PresenceRecord] = []
) -> AttendeeRecord {
    AttendeeRecord(
        campaignID: "c1",
        key: EmailAddress.key(email),
        email: email,
        firstName: first,
        lastName: last,
        company: company,
        ticket: ticket,
        walkInTickets: walkInTickets,
        salesforceID: salesforceID,
        status: nil,
        admitted: true,
        imported: imported,
        walkIn: walkIn,
        firstArrival: presences.first { $0.isArrival },
        latest: presences.last
    )
}

/// A walk-in with `value` in every field a kiosk writes, and a member whose Salesforce ID and status
/// are `value`: what a hostile kiosk or import puts in front of a spreadsheet.
private func hostile(
    _ value: String,
    walkInEmail: String,
    memberFirst: String = "First"
) -> (walkIn: AttendeeRecord, member: AttendeeRecord) {
    let walkIn = attendee(
        walkInEmail,
        first: value,
        last: value,
        company: value,
        imported: false,
        walkIn: true,
        presences: [presence(.registration, seq: 1, kiosk: value, location: value, status: value)]
    )
    let member = attendee(
        "m@x.example",
        first: memberFirst,
        salesforceID: value,
        presences: [presence(.checkIn, seq: 2, status: value)]
    )
    return (walkIn, member)
}

private func parse(_ csv: String) throws -> CSVTable {
    try CSVReader.parse(Data(csv.utf8))
}

private func column(_ table: CSVTable, _ name: String) throws -> [String] {
    let index = try #require(table.header.firstIndex(of: name), "no column \(name)")
    return table.records.map { $0.fields[index] }
}

@Suite("Exporter")
struct ExporterTests {
    @Test func membersListsCheckedInSalesforceMembersWithTheirFirstArrivalStatus() throws {
        let records = [
            attendee("a@x.example", salesforceID: "00v000000000001AAA", presences: [presence(.checkIn, seq: 1)]),
            attendee("b@x.example", salesforceID: "00v000000000002AAA"),  // not checked in
            attendee("c@x.example", presences: [presence(.checkIn, seq: 2)]),  // no Salesforce id
            attendee(
                "d@x.example",
                salesforceID: "00v000000000004AAA",
                presences: [
                    presence(.checkIn, seq: 3, at: 10, status: "Attended"),
                    presence(.checkOut, seq: 4, at: 20, status: "Attended"),
                    presence(.checkIn, seq: 5, at: 30, status: "Attended Late", author: kioskB),
                ]
            ),
            attendee(
                "e@x.example",
                salesforceID: "00v000000000005AAA",
                imported: true,
                walkIn: true,
                presences: [presence(.registration, seq: 6, status: "Responded")]
            ),
            // Only a check-out survives (its check-in was undone): not an arrival.
            attendee("f@x.example", salesforceID: "00v000000000006AAA", presences: [presence(.checkOut, seq: 7)]),
        ]
        let csv = Exporter.members(records)
        #expect(csv.hasPrefix("Id,Status\r\n"))
        let table = try parse(csv)
        #expect(table.header == ["Id", "Status"])
        #expect(
            table.records.map(\.fields) == [
                ["00v000000000001AAA", "Attended"],
                ["00v000000000004AAA", "Attended"],
                ["00v000000000005AAA", "Responded"],
            ]
        )
    }

    @Test func emptyExportsHaveOnlyAHeader() throws {
        #expect(Exporter.members([]) == "Id,Status\r\n")
        #expect(try parse(Exporter.leads([])).records.isEmpty)
        #expect(try parse(Exporter.log([])).header.count == 12)
    }

    @Test func leadsAreWalkInsNotOnTheImportedList() throws {
        let records = [
            attendee(
                "walk@in.example",
                first: "Linus",
                last: "Walker",
                company: "",
                walkInTickets: ["W-1"],
                imported: false,
                walkIn: true,
                presences: [presence(.registration, seq: 1)]
            ),
            attendee(
                "co@in.example",
                first: "Coco",
                last: "Company",
                company: "Acme, Inc.",
                imported: false,
                walkIn: true,
                presences: [presence(.registration, seq: 2)]
            ),
            // Registered at the kiosk with an address that was also imported: not a new lead.
            attendee("known@list.example", imported: true, walkIn: true, presences: [presence(.registration, seq: 3)]),
            attendee("plain@list.example", imported: true, walkIn: false, presences: [presence(.checkIn, seq: 4)]),
        ]
        let table = try parse(Exporter.leads(records))
        #expect(table.header == ["FirstName", "LastName", "Email", "Company", "LeadSource", "Status"])
        #expect(
            table.records.map(\.fields) == [
                [
                    "Linus", "Walker", "walk@in.example", Exporter.companyPlaceholder, "Event Walk-in",
                    "Open - Not Contacted",
                ],
                ["Coco", "Company", "co@in.example", "Acme, Inc.", "Event Walk-in", "Open - Not Contacted"],
            ]
        )
        #expect(Exporter.companyPlaceholder == "[not provided]")
    }

    @Test func logListsEveryPresenceWithTimeKioskAndNote() throws {
        let ada = attendee(
            "ada@x.example",
            first: "Ada",
            last: "Lovelace",
            company: "Analytical",
            ticket: "MUS-1",
            presences: [presence(.checkIn, seq: 1)]
        )
        let walker = attendee(
            "walk@in.example",
            first: "Linus",
            last: "Walker",
            company: "",
            walkInTickets: ["W-ABCD1234"],
            imported: false,
            walkIn: true,
            presences: [presence(.registration, seq: 2)]
        )
        let entries = [
            PresenceLogEntry(
                presence: presence(.checkIn, seq: 1, at: 0),
                campaignName: "DevConf",
                attendee: ada,
                note: "Hello, \"world\""
            ),
            PresenceLogEntry(
                presence: presence(.checkOut, seq: 3, at: 60_000, kiosk: "Hall B", location: ""),
                campaignName: "DevConf",
                attendee: ada,
                note: nil
            ),
            PresenceLogEntry(
                presence: presence(.registration, seq: 2, at: 1_000),
                campaignName: "DevConf",
                attendee: walker,
                note: nil
            ),
            PresenceLogEntry(
                presence: presence(.checkIn, seq: 9, at: 2_000),
                campaignName: "c-unknown",
                attendee: nil,
                note: nil
            ),
        ]
        let table = try parse(Exporter.log(entries))
        #expect(
            table.header == [
                "Time", "Event", "Campaign", "Email", "First Name", "Last Name", "Company", "Ticket", "Kiosk",
                "Location",
                "Member Status", "Note",
            ]
        )
        #expect(table.records.count == 4)
        #expect(
            try column(table, "Time") == [
                ClockText.iso8601(millis: Int64(base)), ClockText.iso8601(millis: Int64(base + 60_000)),
                ClockText.iso8601(millis: Int64(base + 1_000)), ClockText.iso8601(millis: Int64(base + 2_000)),
            ]
        )
        #expect(try column(table, "Event") == ["check-in", "check-out", "walk-in", "check-in"])
        #expect(try column(table, "Campaign") == ["DevConf", "DevConf", "DevConf", "c-unknown"])
        #expect(try column(table, "Email") == ["ada@x.example", "ada@x.example", "walk@in.example", ""])
        #expect(try column(table, "Ticket") == ["MUS-1", "MUS-1", "W-ABCD1234", ""])
        #expect(try column(table, "Kiosk") == ["Hall A", "Hall B", "Hall A", "Hall A"])
        #expect(try column(table, "Location") == ["North door", "", "North door", "North door"])
        #expect(try column(table, "Member Status") == ["Attended", "Attended", "Attended", "Attended"])
        #expect(try column(table, "Note") == ["Hello, \"world\"", "", "", ""])
    }

    @Test(arguments: [
        "=HYPERLINK(\"http://evil.example\",\"click\")", "+1", "-1", "@x", "=1+1", "=cmd|' /C calc'!A0",
        "-2+3", "@SUM(A1:A2)",
    ])
    func formulaCellsAreNeutralizedInEveryExport(value: String) throws {
        let (walkIn, member) = hostile(value, walkInEmail: "evil@in.example", memberFirst: value)
        let leads = try parse(Exporter.leads([walkIn]))
        let members = try parse(Exporter.members([member]))
        let log = try parse(
            Exporter.log([
                PresenceLogEntry(presence: walkIn.firstArrival!, campaignName: value, attendee: walkIn, note: value)
            ])
        )
        let cells =
            leads.records.flatMap(\.fields).prefix(4) + members.records.flatMap(\.fields)
            + log.records.flatMap(\.fields).dropFirst(2)
        #expect(cells.count == 4 + 2 + 10)
        let hostile = cells.filter { $0 != "" && $0 != "evil@in.example" }
        #expect(hostile.count == 3 + 2 + 8)
        for cell in hostile {
            #expect(cell == "'" + value, "\(value.debugDescription) exported as \(cell.debugDescription)")
        }
    }

    /// Leading tab or CR also start formulas in some spreadsheets; whatever the export does with
    /// them (neutralize or turn into a space), no cell may start with a formula character.
    @Test func noCellStartsWithAFormulaCharacter() throws {
        let values = ["\tTab", "\r=1+1", "\n@x", " =1", "\u{1B}[31m=1", "\u{202E}=1", "\u{FEFF}=1"]
        for value in values {
            let (walkIn, member) = hostile(value, walkInEmail: "w@in.example")
            let exports = [
                Exporter.leads([walkIn]), Exporter.members([member]),
                Exporter.log([
                    PresenceLogEntry(presence: walkIn.firstArrival!, campaignName: value, attendee: walkIn, note: value)
                ]),
            ]
            for csv in exports {
                for record in try parse(csv).records {
                    for cell in record.fields {
                        let first = cell.unicodeScalars.first
                        #expect(
                            first.map { !["=", "+", "-", "@", "\t", "\r"].contains($0) } ?? true,
                            "\(value.debugDescription) exported as \(cell.debugDescription)"
                        )
                        #expect(
                            !cell.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x1B || $0.value == 0x202E }
                        )
                    }
                }
            }
        }
    }

    @Test func exportsRoundTripUnicodeAndQuotes() throws {
        let record = attendee(
            "jose@ejemplo.example",
            first: "José",
            last: "Álvarez \"Pepe\" Núñez",
            company: "Café, Técnico S.L.",
            imported: false,
            walkIn: true,
            presences: [presence(.registration, seq: 1)]
        )
        let table = try parse(Exporter.leads([record]))
        #expect(
            table.records.first?.fields.prefix(4) == [
                "José", "Álvarez \"Pepe\" Núñez", "jose@ejemplo.example", "Café, Técnico S.L.",
            ]
        )
        // Every cell is one line: an embedded newline becomes a space.
        let multiline = attendee("x@y.example", first: "Line1\nLine2", imported: false, walkIn: true)
        #expect(try parse(Exporter.leads([multiline])).records.first?.fields.first == "Line1 Line2")
    }
}
