import MusterCore
import Testing

@testable import MusterClient
@testable import MusterRules

@Suite("Audit export")
struct ExporterAuditTests {
    static let kiosk = AuthorID(bytes: [UInt8](repeating: 0xC3, count: 32))!

    static func entry(seq: UInt64, key: String, reason: DoorReason?, count: Int = 1, undone: Bool = false) -> AuditEntry
    {
        AuditEntry(
            ref: DeltaRef(author: kiosk, seq: seq),
            atMillis: 1_795_338_000_000,
            kioskName: "k1",
            zone: "=Hall A",
            campaignID: "c",
            attendeeKey: key,
            reason: reason,
            count: count,
            undone: undone
        )
    }

    @Test func everyScanIsOneRowWithOutcomeReasonAndCount() {
        let ada = Self.entry(seq: 1, key: "ada@x.org", reason: nil, undone: true)
        let csv = Exporter.audit(
            [
                ada,
                Self.entry(seq: 2, key: "bob@x.org", reason: .zoneFull),
                Self.entry(seq: 3, key: "", reason: .notFound, count: 41),
            ],
            conflicts: [ada.ref: .enteredTwice]
        )
        let lines = csv.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == "Time,Kiosk,Zone,Campaign,Attendee,Outcome,Reason,Count,Undone,Conflict,Session")
        #expect(lines[1].hasSuffix(",ada@x.org,admitted,,1,yes,entered_twice,"))
        #expect(lines[2].hasSuffix(",bob@x.org,refused,zone_full,1,,,"))
        #expect(lines[3].hasSuffix(",,refused,not_found,41,,,"))
        #expect(lines[1].contains(",'=Hall A,"), "a zone name cannot become a spreadsheet formula")
    }
}
