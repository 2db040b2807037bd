import Foundation
import MusterAttendeeList
import MusterControl
import MusterCore
import MusterDaemon
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient
@testable import MusterRules

@Suite("OneShotText")
struct OneShotTextTests {
    @Test func exitCodes() {
        let expected: [(ControlResponse.Outcome, Int32)] = [
            (.checkedIn, 0), (.registered, 0), (.checkedOut, 0), (.noted, 0), (.submitted, 0), (.head, 0),
            (.status, 0), (.pong, 0), (.notFound, 2), (.alreadyCheckedIn, 3), (.refused, 4), (.notCheckedIn, 4),
            (.error, 1),
        ]
        for (outcome, code) in expected {
            #expect(OneShotText.exitCode(outcome) == code, "\(outcome)")
        }
    }

    @Test func exitCodesAgreeWithClientErrorCodes() {
        #expect(OneShotText.exitCode(.notFound) == ClientError(.notFound, "").exitCode)
        #expect(OneShotText.exitCode(.alreadyCheckedIn) == ClientError(.alreadyCheckedIn, "").exitCode)
        #expect(OneShotText.exitCode(.refused) == ClientError(.refused, "").exitCode)
        #expect(OneShotText.exitCode(.error) == ClientError(.failed, "").exitCode)
        #expect(ClientError(.daemonUnavailable, "").exitCode == 5)
        #expect(ClientError(.timeout, "").exitCode == 5)
        #expect(ClientError(.usage, "").exitCode == 64)
    }

    @Test func descriptions() {
        let ada = AttendeeSummary.sample(campaign: "c", key: "ada@x", ticket: nil)
        let presence = PresenceSummary(atMillis: 0, kioskName: "Hall A", location: "North door")
        let time = ClockText.time(millis: 0)
        #expect(
            OneShotText.describe(.checkedIn(CheckInAnswer(attendee: ada, checkIn: presence)))
                == "Checked in: Ada Lovelace (Analytical) at \(time) at kiosk Hall A (North door)."
        )
        let already = ControlResponse.alreadyCheckedIn(AlreadyInAnswer(attendee: ada, checkIn: presence, message: nil))
        #expect(OneShotText.describe(already).hasPrefix("Already checked in: Ada Lovelace (Analytical) at \(time)"))
        let walkIn = ControlResponse.registered(WalkInAnswer(ticket: "W-XYZ", attendee: ada, checkIn: presence))
        #expect(
            OneShotText.describe(walkIn).hasPrefix(
                "Registered and checked in: Ada Lovelace (Analytical), ticket W-XYZ"
            )
        )
        let refused = ControlResponse.refused(RefusalAnswer("Check-in closed at 18:00.", attendee: ada))
        #expect(OneShotText.describe(refused) == "Refused: Check-in closed at 18:00. (Ada Lovelace (Analytical))")
        let notFound = ControlResponse.notFound(RefusalAnswer("No ticket or email matches."))
        #expect(OneShotText.describe(notFound) == "Not found: no ticket or email matches.")
        #expect(OneShotText.describe(.failure(.storage, "disk full")) == "disk full")
    }
}

@Suite("TimeParsing")
struct TimeParsingTests {
    /// 2026-11-22 15:45:10 local time.
    static var now: Date {
        Calendar.current.date(from: DateComponents(year: 2026, month: 11, day: 22, hour: 15, minute: 45, second: 10))!
    }

    static func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Int64 {
        let date = Calendar.current.date(
            from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        )!
        return Int64(date.timeIntervalSince1970 * 1000)
    }

    @Test func clockTimeIsToday() {
        #expect(TimeParsing.millis("09:30", now: Self.now) == Self.local(2026, 11, 22, 9, 30))
        #expect(TimeParsing.millis(" 18:00 ", now: Self.now) == Self.local(2026, 11, 22, 18, 0))
        #expect(TimeParsing.millis("00:00", now: Self.now) == Self.local(2026, 11, 22, 0, 0))
    }

    @Test func localDateAndTime() {
        #expect(TimeParsing.millis("2026-11-22 09:30", now: Self.now) == Self.local(2026, 11, 22, 9, 30))
        #expect(TimeParsing.millis("2026-11-23 07:05:09", now: Self.now) == Self.local(2026, 11, 23, 7, 5, 9))
        #expect(TimeParsing.millis("2026-11-22T09:30", now: Self.now) == Self.local(2026, 11, 22, 9, 30))
        #expect(TimeParsing.millis("2026-11-22T09:30:15", now: Self.now) == Self.local(2026, 11, 22, 9, 30, 15))
    }

    @Test func iso8601WithOffset() {
        #expect(TimeParsing.millis("2026-11-22T09:30:00+01:00") == 1_795_336_200_000)
        #expect(TimeParsing.millis("2026-11-22T08:30:00Z") == 1_795_336_200_000)
        #expect(TimeParsing.millis("2026-11-22T03:30:00-05:00") == 1_795_336_200_000)
    }

    @Test(arguments: [
        "", "soon", "tomorrow 9am", "9h30", "2026-13-01 09:00", "2026-11-22 25:00", "24:61", "09:30pm", "12345",
    ])
    func garbageIsNil(text: String) {
        #expect(TimeParsing.millis(text, now: Self.now) == nil, "'\(text)'")
    }
}

@Suite("ImportPlan")
struct ImportPlanTests {
    static let csv = """
        email,first_name,last_name,company,ticket
        Ada.Lovelace@Example.COM,Ada,Lovelace,Analytical,MUS-1
        grace@example.com,Grace,Hopper,Navy,MUS-2
          Spaced@Example.com  ,Sp,Aced,,
        ada.lovelace@example.com,,,Duplicate Inc,
        """

    @Test func newCampaignComesFirstThenOneAttendeePerPerson() throws {
        let list = try AttendeeListImport.parse(Data(Self.csv.utf8))
        let bodies = ImportPlan.bodies(for: list, campaignID: "abc123", newCampaignName: "DevConf 2026")
        #expect(bodies.count == list.rows.count + 1)
        #expect(bodies.first == .campaign(CampaignPayload(campaignID: "abc123", name: "DevConf 2026")))
        let attendees = bodies.dropFirst().compactMap { body -> AttendeePayload? in
            if case .attendee(let payload) = body { payload } else { nil }
        }
        #expect(attendees.count == 3, "the duplicate row was merged by the attendee-list import")
        #expect(attendees.map(\.key) == ["ada.lovelace@example.com", "grace@example.com", "spaced@example.com"])
        for payload in attendees {
            #expect(payload.key == EmailAddress.key(payload.email))
            #expect(payload.campaignID == "abc123")
            #expect(payload.admitted)
        }
        #expect(attendees[0].email == "Ada.Lovelace@Example.COM")
        #expect(attendees[0].ticket == "MUS-1")
        #expect(attendees[0].firstName == "Ada")
        #expect(attendees[2].email == "Spaced@Example.com")
    }

    @Test func existingCampaignGetsNoCampaignDelta() throws {
        let list = try AttendeeListImport.parse(Data(Self.csv.utf8))
        let bodies = ImportPlan.bodies(for: list, campaignID: "existing", newCampaignName: nil)
        #expect(bodies.count == list.rows.count)
        #expect(bodies.allSatisfy { $0.kind == .attendee })
    }

    @Test func refundedRowsAreImportedAsNotAdmitted() throws {
        let csv = """
            Campaign Member ID,First Name,Last Name,Email,Member Status
            00v000000000001AAA,Ada,Lovelace,ada@x.example,Responded
            00v000000000002AAA,Rita,Refund,rita@x.example,Cancelled
            """
        let list = try AttendeeListImport.parse(Data(csv.utf8))
        let bodies = ImportPlan.bodies(for: list, campaignID: "c", newCampaignName: nil)
        let admitted = bodies.compactMap { body -> Bool? in if case .attendee(let p) = body { p.admitted } else { nil }
        }
        #expect(admitted == [true, false])
        let ids = bodies.compactMap { body -> String? in if case .attendee(let p) = body { p.salesforceID } else { nil }
        }
        #expect(ids == ["00v000000000001AAA", "00v000000000002AAA"])
    }

    @Test("a row no replica would accept stops the plan at its line, before anything is signed or sent")
    func rowOverTheDeltaLimitsIsRefusedWithItsLine() throws {
        // Past the attendee list's own 1,000-byte check (built directly), over the decoder's 4,096-byte field limit.
        let huge = String(repeating: "x", count: Limits.maxFieldBytes + 1)
        let list = AttendeeListImport(
            format: .generic,
            rows: [
                AttendeeListRow(line: 2, email: "ok@example.com", firstName: "Ok"),
                AttendeeListRow(line: 42, email: "big@example.com", firstName: huge),
            ],
            merged: [],
            skipped: []
        )
        #expect(throws: Never.self) {
            try ImportPlan.checkedBodies(for: Self.list(rows: 1), campaignID: "c", newCampaignName: "New")
        }
        let error = try #require(throws: ClientError.self) {
            try ImportPlan.checkedBodies(for: list, campaignID: "c", newCampaignName: "New")
        }
        #expect(error.message.hasPrefix("line 42: this attendee cannot be imported ("), "\(error)")
        #expect(error.message.hasSuffix("; nothing was imported"))
    }

    static func list(rows: Int) -> AttendeeListImport {
        AttendeeListImport(
            format: .generic,
            rows: (0..<rows).map { AttendeeListRow(line: $0 + 2, email: "p\($0)@example.com") },
            merged: [],
            skipped: []
        )
    }

    @Test func newCampaignIDsAreRandomHex() {
        let ids = (0..<50).map { _ in ImportPlan.newCampaignID() }
        #expect(Set(ids).count == 50)
        for id in ids {
            #expect(id.count == 16)
            #expect(id.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }
}
