import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// Lookups on a replica holding the whole scenario: exact matches only, never a way to browse.
@Suite("Replica lookups")
struct ReplicaLookupTests {
    static let c = ScenarioLog.campaign

    func lookup(_ replica: Replica, _ query: String, campaign: String = c) throws -> AttendeeRecord? {
        try replica.view { try $0.lookup(campaignID: campaign, query: query) }
    }

    @Test func exactEmailIsCaseInsensitiveAndTrimmed() throws {
        try withScenarioReplica { (replica, _) throws in
            for query in [
                ScenarioLog.email(4), "first4.last4@example.com", "  FIRST4.LAST4@EXAMPLE.COM\n",
                "\tFirst4.Last4@Example.com ",
            ] {
                let record = try lookup(replica, query)
                #expect(record?.key == ScenarioLog.key(4), "\(query)")
                #expect(record?.ticket == ScenarioLog.ticket(4))
                #expect(record?.imported == true)
                #expect(record?.walkIn == false)
            }
        }
    }

    @Test func ticketCodeIsCaseInsensitive() throws {
        try withScenarioReplica { (replica, _) throws in
            for query in ["T-1004", "t-1004", " t-1004 "] {
                #expect(try lookup(replica, query)?.key == ScenarioLog.key(4), "\(query)")
            }
        }
    }

    @Test func walkInTicketsFindTheWalkIn() throws {
        try withScenarioReplica { (replica, log) throws in
            // The same new email registered at both kiosks is one person with both tickets.
            for ticket in log.newWalkInTickets + log.newWalkInTickets.map({ $0.lowercased() }) {
                let record = try lookup(replica, ticket)
                #expect(record?.key == ScenarioLog.newWalkInEmail, "\(ticket)")
                #expect(record?.walkInTickets == log.newWalkInTickets)
                #expect(record?.walkIn == true)
                #expect(record?.imported == false)
                // Last writer wins: kiosk B registered later.
                #expect(record?.firstName == "Newton")
                #expect(record?.company == "Later Co")
            }
            let byEmail = try lookup(replica, "NEW.PERSON@example.com")
            #expect(byEmail?.key == ScenarioLog.newWalkInEmail)
            #expect(byEmail?.isCheckedIn == true)
            #expect(
                try replica.view { try $0.presences(campaignID: Self.c, attendeeKey: ScenarioLog.newWalkInEmail) }.count
                    == 2
            )
        }
    }

    /// A registration under an imported attendee's email checks her in, but an import outranks
    /// every registration (issue 32): she is no walk-in and its ticket code finds nobody.
    @Test func walkInWithAnImportedEmailChecksHerInButMintsNoTicket() throws {
        try withScenarioReplica { (replica, log) throws in
            #expect(try lookup(replica, log.importedWalkInTicket) == nil)
            #expect(try lookup(replica, log.importedWalkInTicket.lowercased()) == nil)
            let viaImportTicket = try #require(try lookup(replica, ScenarioLog.ticket(20)))
            let viaEmail = try lookup(replica, ScenarioLog.email(20))
            #expect(viaImportTicket == viaEmail)
            #expect(viaImportTicket.key == ScenarioLog.key(20))
            #expect(viaImportTicket.imported && !viaImportTicket.walkIn)
            #expect(viaImportTicket.ticket == ScenarioLog.ticket(20))
            #expect(viaImportTicket.walkInTickets.isEmpty)
            // The registration is newer than the import, but a walk-in never overwrites an imported
            // person (issue 13): the import's fields stand.
            #expect(viaImportTicket.firstName == "First20")
            #expect(viaImportTicket.company == "Company 6")
            #expect(viaImportTicket.firstArrival?.kind == .registration)
        }
    }

    @Test func reimportUpdatesFieldsLastWriterWins() throws {
        try withScenarioReplica { (replica, _) throws in
            #expect(try lookup(replica, ScenarioLog.email(3))?.company == "Analytical Engines")
            #expect(try lookup(replica, ScenarioLog.email(2))?.company == "Company 2")
            #expect(try lookup(replica, ScenarioLog.email(29))?.admitted == false)
            #expect(try lookup(replica, ScenarioLog.email(28))?.admitted == true)
        }
    }

    @Test(arguments: [
        "first4", "First4.Last4@", "first4.last4@example.co", "irst4.last4@example.com", "T-100", "T-10", "t-",
        "W-0000", "W-0000AAA", "W-0000AAAAA", "", "   ", "%", "_", "%%", "%@example.com", "first_.last_@example.com",
        "first4.last4@example.%", "T-100_", "T-10%", "W-0000AAA_", "*", "' OR 1=1 --", "first4.last4@example.com'--",
    ])
    func prefixesAndPatternsFindNothing(query: String) throws {
        try withScenarioReplica { (replica, _) throws in
            #expect(try lookup(replica, query) == nil)
        }
    }

    @Test func lookupIsScopedToTheCampaign() throws {
        try withScenarioReplica { (replica, _) throws in
            let meetup = try lookup(replica, ScenarioLog.email(0), campaign: ScenarioLog.otherCampaign)
            #expect(meetup?.ticket == "M-0001")
            #expect(meetup?.company == "Meetup Co")
            #expect(meetup?.isCheckedIn == false)
            #expect(try lookup(replica, "m-0001", campaign: ScenarioLog.otherCampaign)?.key == ScenarioLog.key(0))
            #expect(try lookup(replica, "M-0001") == nil)
            #expect(try lookup(replica, ScenarioLog.email(1), campaign: ScenarioLog.otherCampaign) == nil)
            #expect(try lookup(replica, ScenarioLog.email(0), campaign: "no-such-campaign") == nil)
        }
    }

    @Test func firstArrivalIsTheEarliestByTimestampThenAuthor() throws {
        try withScenarioReplica { (replica, log) throws in
            let record = try #require(try lookup(replica, ScenarioLog.email(2)))
            let presences = try replica.view { try $0.presences(campaignID: Self.c, attendeeKey: ScenarioLog.key(2)) }
            #expect(presences.count == 2)
            #expect(presences[0].hlc == presences[1].hlc)
            // Equal timestamps: the smaller author key wins, on every replica.
            let expected = log.tiedCheckIns.min { $0.author < $1.author }!
            #expect(record.firstArrival?.ref == expected)
            #expect(record.latest?.ref == log.tiedCheckIns.first { $0 != expected })
            #expect(record.isCheckedIn)
        }
    }

    @Test func firstArrivalIgnoresDeliveryOrder() throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            let c = Self.c
            var organizer = venue.signer(venue.organizerKey)
            var kioskA = venue.signer(venue.kioskAKey)
            var kioskB = venue.signer(venue.kioskBKey)
            let setup = try organizer.sign(
                Bodies.attendee(c, email: "ada@example.com", first: "Ada", last: "L", company: "", ticket: nil),
                hlc: HLC(physicalMillis: TestTime.start, logical: 0)
            )
            // Kiosk B's clock is behind: its check-in is stamped earlier though it arrives last.
            let late = try kioskA.sign(
                Bodies.checkIn(c, "ada@example.com", kiosk: "Kiosk A"),
                hlc: HLC(physicalMillis: TestTime.start + 9_000, logical: 0)
            )
            let early = try kioskB.sign(
                Bodies.checkIn(c, "ada@example.com", kiosk: "Kiosk B"),
                hlc: HLC(physicalMillis: TestTime.start + 2_000, logical: 5)
            )
            let lock = try organizer.sign(
                .lock(LockPayload(version: 1, campaignID: c, checkInStatus: "Attended")),
                hlc: HLC(physicalMillis: TestTime.start, logical: 1)
            )
            let replica = try venue.openReplica(in: dir)
            try replica.ingestAtTestTime([setup, lock])
            try replica.ingestAtTestTime([late])
            #expect(try lookup(replica, "ada@example.com")?.firstArrival?.ref == late.ref)
            try replica.ingestAtTestTime([early])
            let record = try lookup(replica, "ada@example.com")
            #expect(record?.firstArrival?.ref == early.ref)
            #expect(record?.firstArrival?.kioskName == "Kiosk B")
            #expect(record?.latest?.ref == late.ref)
        }
    }

    @Test func insideFlipsWithCheckOut() throws {
        try withScenarioReplica { (replica, _) throws in
            let checkedOut = try #require(try lookup(replica, ScenarioLog.email(1)))
            #expect(checkedOut.isCheckedIn)
            #expect(!checkedOut.isInside)
            #expect(checkedOut.latest?.kind == .checkOut)

            let reEntered = try #require(try lookup(replica, ScenarioLog.email(11)))
            #expect(reEntered.isInside)
            let kinds = try replica.view { try $0.presences(campaignID: Self.c, attendeeKey: ScenarioLog.key(11)) }.map(
                \.kind
            )
            #expect(kinds == [.checkIn, .checkOut, .checkIn])

            #expect(try lookup(replica, ScenarioLog.email(0))?.isInside == true)
            let never = try #require(try lookup(replica, ScenarioLog.email(25)))
            #expect(!never.isCheckedIn && !never.isInside && never.latest == nil)
        }
    }

    @Test func undoneCheckInIsNotCountedButItsRecordRemains() throws {
        try withScenarioReplica { (replica, log) throws in
            let record = try #require(try lookup(replica, ScenarioLog.email(5)))
            #expect(!record.isCheckedIn)
            #expect(record.latest == nil)
            #expect(try replica.view { try $0.presence(log.undoneCheckIn) }?.kind == .checkIn)
            let logEntries = try replica.presenceLog(campaignID: Self.c)
            #expect(!logEntries.contains { $0.presence.ref == log.undoneCheckIn })
            // Live arrivals: kiosk A 9, kiosk B 8 (#2 again, #11 twice), walk-in registrations 3; check-outs 2.
            #expect(logEntries.filter(\.presence.isArrival).count == 20)
            #expect(logEntries.filter { !$0.presence.isArrival }.count == 2)
            #expect(zip(logEntries, logEntries.dropFirst()).allSatisfy { $0.presence.hlc <= $1.presence.hlc })
            #expect(logEntries.first { $0.attendee?.key == ScenarioLog.key(0) }?.note == "Great keynote!")
            let checkedIn = try replica.view { try $0.attendees(campaignID: Self.c, checkedInOnly: true) }
            #expect(checkedIn.count == ScenarioLog.expectedCheckedIn)
            #expect(!checkedIn.contains { $0.key == ScenarioLog.key(5) })
        }
    }

    @Test func campaignsMatching() throws {
        try withScenarioReplica { (replica, _) throws in
            let all = try replica.view { try $0.campaigns() }
            #expect(all.map(\.id) == [ScenarioLog.campaign, ScenarioLog.otherCampaign])
            #expect(all[0].name == ScenarioLog.campaignName)
            #expect(all[0].attendees == ScenarioLog.expectedAttendees)
            #expect(all[0].checkedIn == ScenarioLog.expectedCheckedIn)
            #expect(all[1].attendees == 1)
            #expect(all[1].checkedIn == 0)

            func ids(_ text: String) throws -> [String] {
                try replica.view { try $0.campaigns(matching: text) }.map(\.id)
            }
            #expect(try ids("devcon") == [ScenarioLog.campaign])
            #expect(try ids("DEVCON 20") == [ScenarioLog.campaign])
            #expect(try ids("meetup") == [ScenarioLog.otherCampaign])
            #expect(try ids("zürich") == [ScenarioLog.otherCampaign])
            #expect(try ids("ZÜRICH") == [ScenarioLog.otherCampaign])
            #expect(try ids("") == [ScenarioLog.campaign, ScenarioLog.otherCampaign])
            #expect(try ids("e") == [ScenarioLog.campaign, ScenarioLog.otherCampaign])
            #expect(try ids("nothing like it").isEmpty)
            // Wildcards are literal characters.
            #expect(try ids("%").isEmpty)
            #expect(try ids("_").isEmpty)
            #expect(try ids("dev_on").isEmpty)
            #expect(try ids("\\").isEmpty)

            #expect(try replica.view { try $0.campaign(named: "devcon 2025") }?.id == ScenarioLog.campaign)
            #expect(try replica.view { try $0.campaign(named: "devcon") } == nil)
        }
    }
}
