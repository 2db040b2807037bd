import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterDaemon

/// `muster badge replace` in the daemon (issue 37, item 6): real handlers over real replicas, synced
/// by ingest as the sync layer stores (``DoorVenue``). A replaced badge's code is refused with
/// `replaced` by every kiosk that has heard of it, the new code admits, and `--restore` turns it round.
@Suite("Replaced badges")
struct BadgeReplaceTests {
    /// Three kiosks in one hall; Ada holds ticket T-ADA, Bob T-BOB; a lock without door rules.
    static func venue() throws -> DoorVenue {
        let v = try DoorVenue(zones: ["Hall", "Hall", "Hall"])
        try v.organize([
            .campaign(CampaignPayload(campaignID: v.campaignID, name: "Badges")),
            Bodies.attendee(v.campaignID, email: "ada@x.org", first: "Ada", last: "Lovelace", ticket: "T-ADA"),
            Bodies.attendee(v.campaignID, email: "bob@x.org", first: "Bob", last: "Babbage", ticket: "T-BOB"),
        ])
        try v.lock(nil)
        return v
    }

    static func replace(_ v: DoorVenue, at kiosk: Int, _ query: String, restore: Bool = false) -> ControlResponse {
        v.kiosks[kiosk].handler.handle(.replaceBadge(query: query, restore: restore))
    }

    @Test func theOldCodeIsRefusedWhereverTheReplacementIsHeardAndTheNewOneAdmits() throws {
        let v = try Self.venue()
        let replaced = Self.replace(v, at: 0, "ada@x.org")
        #expect(replaced.outcome == .badgeReplaced)
        let code = try #require(replaced.ticket)
        #expect(code.hasPrefix("R-") && code.count == 10)
        #expect(replaced.attendee?.key == "ada@x.org")

        let refused = v.scan(0, "t-ada")
        #expect(refused.outcome == .refused)
        #expect(refused.reason == "replaced")
        #expect(refused.message?.contains("at k1, Hall") == true, "staff are told where: \(refused.message ?? "")")
        #expect(v.kiosks[1].handler.handle(.lookup(query: "T-ADA")).outcome == .found, "k2 has not heard yet")

        try v.syncAll()
        for kiosk in 1...2 { #expect(v.scan(kiosk, "T-ADA").reason == "replaced") }
        #expect(v.scan(1, code.lowercased()).outcome == .checkedIn, "the new code admits, typed in any case")
        try v.syncAll()
        #expect(v.scan(2, "ada@x.org").outcome == .alreadyCheckedIn, "the email still finds her")
        #expect(v.scan(2, "T-BOB").outcome == .checkedIn, "nobody else's code changed")
        try v.syncAll()
        let digests = try Set(v.kiosks.map { try $0.replica.digest() })
        #expect(digests.count == 1)
    }

    @Test func restoreGivesTheListsCodeBackAndKillsTheReplacement() throws {
        let v = try Self.venue()
        let code = try #require(Self.replace(v, at: 0, "ada@x.org").ticket)
        try v.syncAll()
        let restored = Self.replace(v, at: 2, code, restore: true)
        #expect(restored.outcome == .badgeReplaced)
        #expect(restored.ticket == "T-ADA")
        try v.syncAll()
        #expect(v.scan(0, code).reason == "replaced")
        #expect(v.scan(0, "T-ADA").outcome == .checkedIn)
        let never = Self.replace(v, at: 0, "bob@x.org", restore: true)
        #expect(never.outcome == .refused, "nothing to undo")
    }

    /// Two desks cut off from each other replace the same badge: once they meet, both hold the same
    /// one valid code (the later replacement's) and refuse the other two.
    @Test func twoReplacementsAcrossAPartitionEndOnOneCodeEverywhere() throws {
        let v = try Self.venue()
        let first = try #require(Self.replace(v, at: 0, "ada@x.org").ticket)
        let second = try #require(Self.replace(v, at: 1, "T-ADA").ticket)
        #expect(first != second)
        try v.syncAll()
        let answers = [first, second, "T-ADA"].map { code in (0...2).map { v.scan($0, code).reason ?? "admitted" } }
        // Each code gets the same answer on every kiosk (the first admission of the valid one aside).
        let valid = answers.enumerated().filter {
            $0.element.contains("admitted") || $0.element.contains("already_inside")
        }
        #expect(valid.count == 1, "\(answers)")
        #expect(answers[2] == ["replaced", "replaced", "replaced"])
        #expect(answers.filter { $0 == ["replaced", "replaced", "replaced"] }.count == 2)
        try v.syncAll()
        #expect(try Set(v.kiosks.map { try $0.replica.digest() }).count == 1)
    }

    /// The public screen learns only that the badge is dead: not whose it was, nor where and when it
    /// was replaced (that would tell whoever holds it where its owner went).
    @Test func theScreenLearnsNothingOfTheOwner() throws {
        let v = try Self.venue()
        _ = Self.replace(v, at: 0, "ada@x.org")
        let lookup = v.kiosks[0].handler.handle(.lookup(query: "T-ADA"))
        #expect(lookup.outcome == .refused)
        #expect(lookup.attendee == nil)
        #expect(lookup.message == DoorText.replacedOnScreen)
        let checkIn = ScreenAnswer(v.scan(0, "T-ADA"), handles: .test)
        guard case .refused(let refusal) = checkIn else {
            Issue.record("not a refusal: \(checkIn)")
            return
        }
        #expect(refusal.reason == .replaced)
        #expect(refusal.attendee == nil)
        #expect(refusal.message == DoorText.replacedOnScreen)
    }

    @Test func theScreenMayNotReplaceABadge() {
        #expect(!ControlAccessPolicy.allows(.replaceBadge(query: "ada@x.org", restore: false), role: .screen))
        #expect(ControlAccessPolicy.allows(.replaceBadge(query: "ada@x.org", restore: false), role: .staff))
    }
}
