import MusterControl
import MusterCore
import MusterRules
import Testing

@testable import MusterDaemon

/// Door rules enforced in the daemon's check-in path, on kiosks that share their deltas
/// ("connected": synced after every scan) and on kiosks cut off from each other ("partitioned":
/// not synced until the end). A partitioned kiosk decides from what it holds; these tests pin
/// down exactly what that allows, and that every replica agrees once the partition heals.
@Suite("Door rules")
struct DoorRuleTests {
    @Test func capacityConnectedRefusesTheNextAttendee() throws {
        let v = try DoorVenue(zones: ["Hall", "Hall"])
        try v.setUp(attendees: 4, rules: DoorRules(zones: [ZoneRule(name: "Hall", capacity: 2)]))
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        try v.syncAll()
        #expect(v.scan(1, "a1@x.org").outcome == .checkedIn)
        try v.syncAll()
        let full = v.scan(0, "a2@x.org")
        #expect(full.outcome == .refused)
        #expect(full.reason == "zone_full")
        #expect(full.message == DoorText.zoneFull)
        #expect(v.checkOut(1, "a1@x.org").outcome == .checkedOut)
        try v.syncAll()
        #expect(v.scan(0, "a2@x.org").outcome == .checkedIn, "a check-out frees the place")
        try v.syncAll()
        #expect(try v.inside(1, zone: "Hall") == 2)
    }

    @Test func capacityPartitionedAdmitsWhatEachSideSees() throws {
        let v = try DoorVenue(zones: ["Hall", "Hall"])
        try v.setUp(attendees: 6, rules: DoorRules(zones: [ZoneRule(name: "Hall", capacity: 2)]))
        for index in 0..<3 { _ = v.scan(0, "a\(index)@x.org") }
        for index in 3..<6 { _ = v.scan(1, "a\(index)@x.org") }
        // Each side fills the hall on its own: the race the escrow measurement is about.
        #expect(try v.inside(0, zone: "Hall") == 2)
        #expect(try v.inside(1, zone: "Hall") == 2)
        try v.syncAll()
        #expect(try v.inside(0, zone: "Hall") == 4)
        #expect(try v.inside(1, zone: "Hall") == 4)
        #expect(try v.kiosks[0].replica.digest() == v.kiosks[1].replica.digest())
        #expect(v.scan(1, "a2@x.org").reason == "zone_full", "once healed, both refuse")
    }

    @Test func escrowNeverOvershootsEvenPartitioned() throws {
        let v = try DoorVenue(zones: ["Hall", "Hall"])
        let rules = DoorRules(zones: [ZoneRule(name: "Hall", capacity: 4, escrow: true)])
        try v.setUp(attendees: 8, rules: rules)
        var admitted = 0
        for index in 0..<4 where v.scan(0, "a\(index)@x.org").outcome == .checkedIn { admitted += 1 }
        for index in 4..<8 where v.scan(1, "a\(index)@x.org").outcome == .checkedIn { admitted += 1 }
        #expect(admitted == 4, "each door admits its share of 2, partitioned")
        try v.syncAll()
        #expect(try v.inside(0, zone: "Hall") == 4)
        let refused = v.scan(0, "a3@x.org")
        #expect(refused.reason == "zone_full")
        // A check-out at the other door frees a place of k1's share once k1 hears of it.
        #expect(v.checkOut(1, "a0@x.org").outcome == .checkedOut)
        #expect(v.scan(0, "a3@x.org").reason == "zone_full", "k1 has not seen the check-out yet")
        try v.syncAll()
        #expect(v.scan(0, "a3@x.org").outcome == .checkedIn)
    }

    @Test func aFullZoneRefusesWalkInsToo() throws {
        let v = try DoorVenue(zones: ["Hall"])
        try v.setUp(attendees: 1, rules: DoorRules(zones: [ZoneRule(name: "Hall", capacity: 1)]))
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        let request = ControlRequest.register(
            WalkInRegistration(firstName: "Wal", lastName: "Kin", email: "walk@in.org")
        )
        let response = v.kiosks[0].handler.handle(request)
        #expect(response.outcome == .refused)
        #expect(response.reason == "zone_full")
        #expect(try v.kiosks[0].replica.view { try $0.attendee(campaignID: v.campaignID, key: "walk@in.org") } == nil)
        #expect(try v.scans(on: 0).values.contains { $0.attendeeKey == "walk@in.org" && $0.reason == .zoneFull })
    }

    @Test func alreadyInsideConnectedAndPartitioned() throws {
        let v = try DoorVenue(zones: ["Hall", "Hall"])
        try v.setUp(attendees: 2, rules: DoorRules(zones: [ZoneRule(name: "Hall")]))
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        try v.syncAll()
        let again = v.scan(1, "a0@x.org")
        #expect(again.outcome == .alreadyCheckedIn)
        #expect(again.reason == "already_inside")
        // Partitioned: k2 has not seen k1's check-in of a1, so it lets a1 in too; one person still.
        #expect(v.scan(0, "a1@x.org").outcome == .checkedIn)
        #expect(v.scan(1, "a1@x.org").outcome == .checkedIn)
        try v.syncAll()
        #expect(try v.inside(0, zone: "Hall") == 2)
        #expect(v.scan(0, "a1@x.org").reason == "already_inside")
    }

    @Test func entriesOnceConnectedAndPartitioned() throws {
        let v = try DoorVenue(zones: ["Hall", "Hall"])
        try v.setUp(attendees: 2, rules: DoorRules(zones: [ZoneRule(name: "Hall")], entries: .once))
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        #expect(v.checkOut(0, "a0@x.org").outcome == .checkedOut)
        let used = v.scan(0, "a0@x.org")
        #expect(used.reason == "entries_used_up")
        #expect(used.message == DoorText.entriesUsedUp(.once))
        #expect(v.scan(1, "a0@x.org").outcome == .checkedIn, "partitioned: k2 has not seen the first entry")
        try v.syncAll()
        #expect(v.checkOut(1, "a0@x.org").outcome == .checkedOut)
        try v.syncAll()
        #expect(v.scan(1, "a0@x.org").reason == "entries_used_up")
        #expect(v.scan(0, "a0@x.org").reason == "entries_used_up")
    }

    @Test func entriesPerDayResetAtMidnight() throws {
        let v = try DoorVenue(zones: ["Hall"])
        try v.setUp(attendees: 1, rules: DoorRules(entries: .perDay(1)))
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        #expect(v.checkOut(0, "a0@x.org").outcome == .checkedOut)
        #expect(v.scan(0, "a0@x.org").reason == "entries_used_up")
        v.clock.advance(by: .seconds(24 * 3_600))
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn, "a new day, a new entry")
    }

    @Test func reEntryRefusedIsPerZone() throws {
        let v = try DoorVenue(zones: ["Hall", "Lab"])
        try v.setUp(attendees: 1, rules: DoorRules(reEntry: false))
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        #expect(v.checkOut(0, "a0@x.org").outcome == .checkedOut)
        let back = v.scan(0, "a0@x.org")
        #expect(back.reason == "re_entry_refused")
        #expect(back.message == DoorText.reEntryRefused)
        try v.syncAll()
        #expect(v.scan(1, "a0@x.org").outcome == .checkedIn, "the lab is another door")
    }

    @Test func refusedAndNotFoundAndNotLocked() throws {
        let v = try DoorVenue(zones: ["Hall"])
        #expect(v.scan(0, "a0@x.org").reason == "not_locked")
        try v.setUp(attendees: 1, rules: DoorRules())
        let refunded = v.scan(0, "refunded@x.org")
        #expect(refunded.outcome == .refused && refunded.reason == "not_admitted")
        let unknown = v.scan(0, "nobody@x.org")
        #expect(unknown.outcome == .notFound && unknown.reason == "not_found")
    }

    @Test func enteringAnExclusiveZoneEndsPresenceInTheOthers() throws {
        let v = try DoorVenue(zones: ["Hall", "Annex"])
        let rules = DoorRules(zones: [ZoneRule(name: "Hall"), ZoneRule(name: "Annex", exclusive: true)])
        try v.setUp(attendees: 2, rules: rules)
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        try v.syncAll()
        #expect(v.scan(1, "a0@x.org").outcome == .checkedIn)
        try v.syncAll()
        for kiosk in 0..<2 {
            #expect(try v.inside(kiosk, zone: "Hall") == 0, "moved out of the hall (kiosk \(kiosk))")
            #expect(try v.inside(kiosk, zone: "Annex") == 1)
        }
        // Back to the hall (not exclusive): the annex presence stays, as a hall inside a venue.
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        try v.syncAll()
        #expect(try v.inside(1, zone: "Hall") == 1)
        #expect(try v.inside(1, zone: "Annex") == 1)
    }

    @Test func exclusiveEntryWhilePartitionedEndsOnlyWhatItSaw() throws {
        let v = try DoorVenue(zones: ["Hall", "Annex"])
        let rules = DoorRules(zones: [ZoneRule(name: "Hall"), ZoneRule(name: "Annex", exclusive: true)])
        try v.setUp(attendees: 1, rules: rules)
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        #expect(v.scan(1, "a0@x.org").outcome == .checkedIn, "the annex has not seen the hall entry")
        try v.syncAll()
        // Causality, not clocks: the annex entry named no hall arrival, so both stand until a
        // check-out at the hall (or the next exclusive entry) ends it; every replica agrees.
        #expect(try v.inside(0, zone: "Hall") == 1)
        #expect(try v.inside(1, zone: "Annex") == 1)
        #expect(try v.kiosks[0].replica.digest() == v.kiosks[1].replica.digest())
    }

    @Test func checkOutIsPerZone() throws {
        let v = try DoorVenue(zones: ["Hall", "Lab"])
        try v.setUp(attendees: 1, rules: DoorRules())
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        try v.syncAll()
        #expect(v.scan(1, "a0@x.org").outcome == .checkedIn)
        #expect(v.checkOut(1, "a0@x.org").outcome == .checkedOut)
        try v.syncAll()
        #expect(try v.inside(0, zone: "Lab") == 0)
        #expect(try v.inside(0, zone: "Hall") == 1, "leaving the lab is not leaving the hall")
        #expect(v.checkOut(1, "a0@x.org").outcome == .notCheckedIn)
    }

    @Test func aLockWithoutRulesKeepsTheOldBehaviour() throws {
        let v = try DoorVenue(zones: ["Hall", "Lab"])
        try v.setUp(attendees: 1, rules: nil)
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        try v.syncAll()
        #expect(v.scan(1, "a0@x.org").outcome == .alreadyCheckedIn, "one venue, one presence")
        #expect(v.checkOut(1, "a0@x.org").outcome == .checkedOut, "a check-out anywhere leaves the venue")
        try v.syncAll()
        #expect(try v.inside(0, zone: "Hall") == 0)
    }
}
