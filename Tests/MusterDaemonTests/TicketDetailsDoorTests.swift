import Foundation
import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterDaemon

/// What a real list says of a ticket (issue 35), enforced in the daemon's check-in path on kiosks
/// that do not hear each other: a zone that admits only some ticket types, a ticket's own validity,
/// and an attention ticket that only staff may admit.
@Suite("Ticket details at the door")
struct TicketDetailsDoorTests {
    static let vip = AttendeeDetails(ticketType: "VIP")
    static let general = AttendeeDetails(ticketType: "General admission")

    /// Kiosks 0 and 1 stand at the VIP lounge, kiosk 2 in the hall; nothing is synced after the set-up.
    private func venue(_ people: [(String, AttendeeDetails?)], rules: DoorRules) throws -> DoorVenue {
        let v = try DoorVenue(zones: ["VIP", "VIP", "Hall"])
        var bodies: [DeltaBody] = [.campaign(CampaignPayload(campaignID: v.campaignID, name: "Doors"))]
        for (email, details) in people {
            bodies.append(Bodies.attendee(v.campaignID, email: email, first: "A", last: "B", details: details))
        }
        try v.organize(bodies)
        try v.lock(rules)
        return v
    }

    static let vipOnly = DoorRules(zones: [ZoneRule(name: "VIP", types: ["vip", "Speaker"]), ZoneRule(name: "Hall")])

    @Test func aVipZoneRefusesOtherTypesAtEveryDoorOffline() throws {
        let v = try venue(
            [
                ("ga@x.org", Self.general), ("vip@x.org", Self.vip), ("none@x.org", nil),
                ("friday@x.org", AttendeeDetails(ticketType: "VIP – Friday")),
            ],
            rules: Self.vipOnly
        )
        for kiosk in [0, 1] {
            let refused = v.scan(kiosk, "ga@x.org")
            #expect(refused.outcome == .refused)
            #expect(refused.reason == "type_not_admitted")
            #expect(refused.message == DoorText.typeNotAdmitted)
            #expect(v.scan(kiosk, "none@x.org").reason == "type_not_admitted", "a ticket without a type is no VIP")
        }
        #expect(v.scan(0, "vip@x.org").outcome == .checkedIn, "the type compared without case")
        #expect(v.scan(1, "friday@x.org").outcome == .checkedIn, "a variation of VIP is a VIP ticket")
        #expect(v.scan(2, "ga@x.org").outcome == .checkedIn, "the hall admits every type")
        // Every refusal is audited, and once the doors hear each other they agree.
        #expect(try v.scans(on: 0).values.filter { $0.reason == .typeNotAdmitted }.count == 2)
        try v.syncAll()
        #expect(try v.kiosks[0].replica.digest() == v.kiosks[2].replica.digest())
        #expect(try v.inside(1, zone: "VIP") == 2)
    }

    @Test func aTicketIsRefusedOutsideItsValidity() throws {
        let now = Int64(HandlerFixture.now)
        let tomorrow = AttendeeDetails(validFromMillis: now + 86_400_000, validUntilMillis: now + 2 * 86_400_000)
        let yesterday = AttendeeDetails(validFromMillis: now - 2 * 86_400_000, validUntilMillis: now - 86_400_000)
        let v = try venue([("tomorrow@x.org", tomorrow), ("yesterday@x.org", yesterday)], rules: DoorRules())
        let early = v.scan(2, "tomorrow@x.org")
        #expect(early.reason == "not_valid_now")
        #expect(early.message?.hasPrefix("This ticket is valid from") == true)
        #expect(v.scan(2, "yesterday@x.org").reason == "not_valid_now")
        v.clock.advance(by: .milliseconds(86_400_000 + 1))
        #expect(v.scan(2, "tomorrow@x.org").outcome == .checkedIn, "valid once its day begins")
    }

    @Test func anAttentionTicketNeedsStaffAndTheScreenNeverReadsItsText() throws {
        let text = "Check photo ID: under 18"
        let flagged = AttendeeDetails(ticketType: "VIP", attention: true, attentionText: text)
        let v = try venue([("flag@x.org", flagged)], rules: Self.vipOnly)
        let refused = v.scan(0, "flag@x.org")
        #expect(refused.reason == "needs_staff")
        #expect(refused.message == DoorText.needsStaff)
        // Staff read the text in the answer's attendee; the public screen's answer has no field for it.
        guard case .refused(let answer) = refused else {
            Issue.record("not a refusal: \(refused)")
            return
        }
        #expect(answer.attendee?.attention == text)
        let screen = try ControlServer.encode(refused, for: .screen, handles: ScreenHandles.random())
        let line = String(decoding: screen.readableBytesView, as: UTF8.self)
        #expect(!line.contains("photo ID") && !line.contains("VIP"), "the screen's line: \(line)")
        #expect(line.contains("needs_staff"))
        #expect(try v.scans(on: 0).values.map(\.reason) == [.needsStaff], "the refusal is all that was written")

        // Staff confirm: admitted, with a note that names who confirmed.
        let confirmed = v.kiosks[0].handler.handle(.confirmCheckIn(query: "flag@x.org", staff: "Grace"))
        #expect(confirmed.outcome == .checkedIn)
        #expect(try notes(v, on: 0).map(\.text) == ["Attention confirmed by Grace at k1"])
    }

    @Test func aConfirmationStillMeetsEveryOtherRule() throws {
        let flagged = AttendeeDetails(ticketType: "General", attention: true)
        let v = try venue([("flag@x.org", flagged), ("plain@x.org", Self.general)], rules: Self.vipOnly)
        let request = ControlRequest.confirmCheckIn(query: "flag@x.org", staff: "Grace")
        #expect(v.kiosks[0].handler.handle(request).reason == "type_not_admitted")
        #expect(v.kiosks[2].handler.handle(request).outcome == .checkedIn)
        // A ticket without attention confirmed by staff is a plain check-in: no note of its own.
        #expect(v.kiosks[2].handler.handle(.confirmCheckIn(query: "plain@x.org", staff: "Grace")).outcome == .checkedIn)
        #expect(try notes(v, on: 2).map(\.attendeeKey) == ["flag@x.org"])
    }

    /// The notes kiosk `kiosk` wrote.
    private func notes(_ v: DoorVenue, on kiosk: Int) throws -> [NotePayload] {
        try v.kiosks[kiosk].replica.deltas(of: v.kiosks[kiosk].author).compactMap { delta in
            guard case .note(let note)? = try? delta.decode().body else { return nil }
            return note
        }
    }

    @Test func theScreensUserMayNotConfirm() {
        #expect(!ControlAccessPolicy.allows(.confirmCheckIn(query: "a@x.org", staff: "me"), role: .screen))
        #expect(ControlAccessPolicy.allows(.confirmCheckIn(query: "a@x.org", staff: "me"), role: .staff))
    }
}

/// Add-ons handed out once (issue 35) by the daemon's `redeem`, on desks that hear each other and on
/// desks cut off from each other.
@Suite("Add-on desks")
struct AddonDeskTests {
    static let shirt = AttendeeDetails(ticketType: "VIP", addons: ["T-shirt", "Dinner"])

    /// Desks 0 and 1 in the Merch zone, desk 2 in the hall; nothing synced after the set-up.
    private func venue(rules: DoorRules = DoorRules()) throws -> DoorVenue {
        let v = try DoorVenue(zones: ["Merch", "Merch", "Hall"])
        try v.organize([
            .campaign(CampaignPayload(campaignID: v.campaignID, name: "Doors")),
            Bodies.attendee(v.campaignID, email: "ada@x.org", first: "Ada", last: "L", details: Self.shirt),
            Bodies.attendee(v.campaignID, email: "bob@x.org", first: "Bob", last: "B"),
        ])
        try v.lock(rules)
        return v
    }

    private func redeem(_ v: DoorVenue, _ desk: Int, _ addon: String, _ query: String) -> ControlResponse {
        v.kiosks[desk].handler.handle(.redeem(addon: addon, query: query))
    }

    @Test func onceWhileTheDesksHearEachOther() throws {
        let v = try venue()
        guard case .redeemed(let attendee, let addon) = redeem(v, 0, "t-shirt", "ada@x.org") else {
            Issue.record("not handed out")
            return
        }
        #expect(attendee.key == "ada@x.org" && addon == "T-shirt", "named as the ticket names it")
        try v.syncAll()
        let again = redeem(v, 1, "T-SHIRT", "ada@x.org")
        #expect(again.reason == "already_redeemed")
        #expect(again.message?.contains("at k1, Merch") == true, "staff read when and where: \(again)")
        // The public screen's user reads neither.
        let screen = try ControlServer.encode(again, for: .screen, handles: ScreenHandles.random())
        let line = String(decoding: screen.readableBytesView, as: UTF8.self)
        #expect(!line.contains("k1") && !line.contains("Merch") && line.contains("already_redeemed"), "\(line)")
        #expect(redeem(v, 1, "Dinner", "ada@x.org").outcome == .redeemed, "another add-on is its own")
        #expect(redeem(v, 1, "Dinner", "bob@x.org").reason == "addon_not_bought")
        #expect(redeem(v, 1, "Dinner", "nobody@x.org").outcome == .notFound)
        try v.syncAll()
        #expect(try v.kiosks[0].replica.view { try $0.conflicts(campaignID: v.campaignID) }.isEmpty)
    }

    @Test func aDoubleAcrossAPartitionIsKeptAndReported() throws {
        let v = try venue()
        #expect(redeem(v, 0, "T-shirt", "ada@x.org").outcome == .redeemed)
        #expect(redeem(v, 1, "T-shirt", "ada@x.org").outcome == .redeemed, "desk 1 has not heard of desk 0's")
        try v.syncAll()
        for kiosk in v.kiosks {
            let held = try kiosk.replica.view { try $0.redemptions(campaignID: v.campaignID, attendeeKey: "ada@x.org") }
            #expect(held.count == 2, "both records survive")
            let conflicts = try kiosk.replica.view { try $0.conflicts(campaignID: v.campaignID) }
            #expect(conflicts.map(\.kind) == [.redeemedTwice])
            #expect(conflicts.first?.addon == "T-shirt")
        }
        #expect(try v.kiosks[0].replica.digest() == v.kiosks[2].replica.digest())
    }

    @Test func anAddOnConfinedToAZonesDesks() throws {
        let rules = DoorRules(zones: [ZoneRule(name: "Merch", addons: ["T-shirt"]), ZoneRule(name: "Hall")])
        let v = try venue(rules: rules)
        let refused = redeem(v, 2, "T-shirt", "ada@x.org")
        #expect(refused.reason == "wrong_desk")
        #expect(refused.message == "T-shirt is handed out at Merch only.")
        #expect(redeem(v, 2, "Dinner", "ada@x.org").outcome == .redeemed, "an add-on no zone names: any desk")
        #expect(redeem(v, 0, "T-shirt", "ada@x.org").outcome == .redeemed)
    }
}

/// Parties (issue 35): the rest of an order checked in with one answer, each member their own
/// check-in under the door's rules.
@Suite("Parties at the door")
struct PartyDoorTests {
    static func member(_ order: String, _ extra: AttendeeDetails = AttendeeDetails()) -> AttendeeDetails {
        var details = extra
        details.order = order
        return details
    }

    private func venue(capacity: UInt32? = nil) throws -> DoorVenue {
        let v = try DoorVenue(zones: ["Hall", "Hall"])
        try v.organize([
            .campaign(CampaignPayload(campaignID: v.campaignID, name: "Doors")),
            Bodies.attendee(v.campaignID, email: "ada@x.org", first: "Ada", last: "L", details: Self.member("ab12")),
            Bodies.attendee(v.campaignID, email: "bob@x.org", first: "Bob", last: "B", details: Self.member("AB12")),
            Bodies.attendee(v.campaignID, email: "cy@x.org", first: "Cy", last: "C", details: Self.member("AB12")),
            Bodies.attendee(
                v.campaignID,
                email: "flag@x.org",
                first: "F",
                last: "F",
                details: Self.member("AB12", AttendeeDetails(attention: true))
            ),
            Bodies.attendee(v.campaignID, email: "solo@x.org", first: "S", last: "S"),
        ])
        try v.lock(DoorRules(zones: [ZoneRule(name: "Hall", capacity: capacity)]))
        return v
    }

    @Test func aCheckInSaysHowManyOfTheOrderWaitAndOneAnswerChecksThemIn() throws {
        let v = try venue()
        guard case .checkedIn(let answer) = v.scan(0, "ada@x.org") else {
            Issue.record("Ada was not checked in")
            return
        }
        #expect(answer.party == 3, "Bob, Cy and the attention ticket: order codes compared as codes are")
        guard case .partyCheckedIn(let party) = v.kiosks[0].handler.handle(.checkInParty(query: "ada@x.org")) else {
            Issue.record("no party answer")
            return
        }
        #expect(party.admitted.map(\.key) == ["bob@x.org", "cy@x.org"])
        #expect(party.refused.map(\.reason) == ["needs_staff"], "an attention ticket still needs staff")
        #expect(v.scan(0, "solo@x.org").outcome == .checkedIn)
        guard case .checkedIn(let solo) = v.scan(1, "solo@x.org") else { return }
        #expect(solo.party == nil, "no order, no party")
    }

    @Test func eachMemberCountsAgainstTheZonesCapacity() throws {
        let v = try venue(capacity: 2)
        #expect(v.scan(0, "solo@x.org").outcome == .checkedIn)
        guard case .partyCheckedIn(let party) = v.kiosks[0].handler.handle(.checkInParty(query: "AB12")) else {
            Issue.record("no party answer by order code")
            return
        }
        #expect(party.admitted.map(\.key) == ["ada@x.org"], "the order code finds the whole order")
        // Full for the rest, the attention ticket too: a person the door refuses anyway is told why.
        #expect(party.refused.map(\.reason) == ["zone_full", "zone_full", "zone_full"])
        #expect(try v.inside(0, zone: "Hall") == 2)
    }

    @Test func theScreenIsToldTheCountsOnly() throws {
        let v = try venue()
        _ = v.scan(0, "ada@x.org")
        let response = v.kiosks[0].handler.handle(.checkInParty(query: "ada@x.org"))
        let screen = try ControlServer.encode(response, for: .screen, handles: ScreenHandles.random())
        let line = String(decoding: screen.readableBytesView, as: UTF8.self)
        #expect(line.contains("\"partyAdmittedCount\":2"))
        #expect(!line.contains("bob") && !line.contains("Cy"), "\(line)")
    }
}
