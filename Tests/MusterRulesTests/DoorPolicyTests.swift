import MusterCore
import MusterTestSupport
import Testing

@testable import MusterRules

/// The door rules as a pure function: one test per rule, each with the state that trips it and the
/// nearest state that does not.
@Suite("DoorPolicy")
struct DoorPolicyTests {
    static let now: UInt64 = 1_795_338_000_000
    static let dayStart: Int64 = 1_795_305_600_000
    static let kiosk = AuthorID(bytes: [UInt8](repeating: 7, count: 32))!

    static func lock(_ rules: DoorRules?, opens: Int64? = nil, closes: Int64? = nil) -> LockState {
        LockState(
            version: 2,
            campaignID: "camp",
            campaignName: "Camp",
            checkInStatus: "Attended",
            opensAtMillis: opens,
            closesAtMillis: closes,
            rules: rules
        )
    }

    static let otherKiosk = AuthorID(bytes: [UInt8](repeating: 8, count: 32))!

    static func arrival(
        _ zone: String,
        seq: UInt64,
        at millis: UInt64 = now - 3_600_000,
        by author: AuthorID = kiosk
    ) -> PresenceRecord {
        PresenceRecord(
            ref: DeltaRef(author: author, seq: seq),
            kind: .checkIn,
            hlc: HLC(physicalMillis: millis, logical: 0),
            kioskName: "k",
            location: zone,
            memberStatus: "Attended"
        )
    }

    static func attempt(
        _ lock: LockState?,
        zone: String = "Hall",
        arrivals: [PresenceRecord] = [],
        open: [PresenceRecord] = [],
        admitted: Bool = true,
        found: Bool = true,
        inside: Int = 0,
        now: UInt64 = now
    ) -> DoorDecision {
        let attendee = DoorAttempt.Attendee(
            key: "ada@x.org",
            admitted: admitted,
            arrivals: arrivals,
            openArrivals: open
        )
        return DoorPolicy.decide(
            DoorAttempt(
                lock: lock,
                zone: zone,
                attendee: found ? attendee : nil,
                insideZone: inside,
                nowMillis: now,
                dayStartMillis: dayStart
            )
        )
    }

    @Test func noLockIsNotLocked() {
        #expect(Self.attempt(nil).reason == .notLocked)
    }

    @Test func unknownAttendeeIsNotFound() {
        #expect(Self.attempt(Self.lock(nil), found: false).reason == .notFound)
    }

    @Test func refundedTicketIsNotAdmitted() {
        #expect(Self.attempt(Self.lock(nil), admitted: false).reason == .notAdmitted)
    }

    @Test func withoutRulesTheVenueIsOneZone() {
        let elsewhere = Self.arrival("Other hall", seq: 1)
        #expect(Self.attempt(Self.lock(nil), arrivals: [elsewhere], open: [elsewhere]).reason == .alreadyInside)
        #expect(
            Self.attempt(Self.lock(nil), arrivals: [elsewhere])
                == .admit(campaignID: "camp", memberStatus: "Attended", ends: [])
        )
    }

    @Test func alreadyInsideIsPerZone() {
        let rules = DoorRules(zones: [ZoneRule(name: "Hall"), ZoneRule(name: "Lab")])
        let inHall = Self.arrival("Hall", seq: 1)
        #expect(
            Self.attempt(Self.lock(rules), zone: "Hall", arrivals: [inHall], open: [inHall]).reason == .alreadyInside
        )
        #expect(Self.attempt(Self.lock(rules), zone: "Lab", arrivals: [inHall], open: [inHall]).reason == nil)
    }

    @Test func theLockWindowAndTheZoneWindowBothBind() {
        let now = Int64(Self.now)
        #expect(Self.attempt(Self.lock(nil, opens: now + 1)).reason == .outsideWindow)
        #expect(Self.attempt(Self.lock(nil, closes: now)).reason == .outsideWindow)
        let rules = DoorRules(zones: [ZoneRule(name: "Hall", opensAtMillis: now - 10, closesAtMillis: now + 10)])
        #expect(Self.attempt(Self.lock(rules)).reason == nil)
        #expect(Self.attempt(Self.lock(rules), now: Self.now + 10).reason == .outsideWindow)
        #expect(Self.attempt(Self.lock(rules), zone: "Lab", now: Self.now + 10).reason == nil, "other zones stay open")
    }

    @Test func capacityFillsTheZone() {
        let rules = DoorRules(zones: [ZoneRule(name: "Hall", capacity: 2)])
        #expect(Self.attempt(Self.lock(rules), inside: 1).reason == nil)
        #expect(Self.attempt(Self.lock(rules), inside: 2).reason == .zoneFull)
        #expect(
            Self.attempt(Self.lock(rules), zone: "Lab", inside: 2).reason == nil,
            "a zone not in the plan has no cap"
        )
    }

    @Test func onceMeansOneEntryPerZone() {
        let rules = DoorRules(zones: [ZoneRule(name: "Hall")], entries: .once)
        let earlier = Self.arrival("Hall", seq: 1, at: Self.now - 3 * 86_400_000)
        #expect(Self.attempt(Self.lock(rules), arrivals: [earlier]).reason == .entriesUsedUp)
        #expect(Self.attempt(Self.lock(rules), zone: "Lab", arrivals: [earlier]).reason == nil)
    }

    @Test func perDayCountsOnlyToday() {
        let rules = DoorRules(entries: .perDay(2))
        let yesterday = Self.arrival("Hall", seq: 1, at: UInt64(Self.dayStart) - 1)
        let today = Self.arrival("Hall", seq: 2, at: UInt64(Self.dayStart) + 1)
        let later = Self.arrival("Hall", seq: 3, at: UInt64(Self.dayStart) + 2)
        #expect(Self.attempt(Self.lock(rules), arrivals: [yesterday, yesterday, today]).reason == nil)
        #expect(Self.attempt(Self.lock(rules), arrivals: [yesterday, today, later]).reason == .entriesUsedUp)
    }

    @Test func reEntryRefusedAfterLeaving() {
        let rules = DoorRules(reEntry: false)
        let left = Self.arrival("Hall", seq: 1)
        #expect(Self.attempt(Self.lock(rules), arrivals: [left]).reason == .reEntryRefused)
        #expect(Self.attempt(Self.lock(DoorRules(reEntry: true)), arrivals: [left]).reason == nil)
        #expect(Self.attempt(Self.lock(rules), zone: "Lab", arrivals: [left]).reason == nil, "re-entry is per zone")
    }

    @Test func enteringAnExclusiveZoneEndsPresenceElsewhere() {
        let rules = DoorRules(zones: [ZoneRule(name: "Annex", exclusive: true), ZoneRule(name: "Hall")])
        let hall = Self.arrival("Hall", seq: 1)
        let lab = Self.arrival("Lab", seq: 2, by: Self.otherKiosk)
        let decision = Self.attempt(Self.lock(rules), zone: "Annex", arrivals: [hall, lab], open: [hall, lab])
        #expect(decision == .admit(campaignID: "camp", memberStatus: "Attended", ends: [hall.ref, lab.ref]))
        let plain = Self.attempt(Self.lock(rules), zone: "Hall", arrivals: [lab], open: [lab])
        #expect(plain == .admit(campaignID: "camp", memberStatus: "Attended", ends: []), "a hall ends nothing")
    }

    @Test func checkOutLeavesOnlyThisZoneUnderRules() {
        let hall = Self.arrival("Hall", seq: 1)
        let lab = Self.arrival("Lab", seq: 2, by: Self.otherKiosk)
        #expect(DoorPolicy.checkOutEnds([hall, lab], zone: "Hall", rules: DoorRules()) == [hall.ref])
        #expect(DoorPolicy.checkOutEnds([hall, lab], zone: "Hall", rules: nil) == [hall.ref, lab.ref])
    }

    /// A check-out names each author's newest open arrival, which ends that author's earlier ones
    /// too (the `open_arrival` view): 17 arrivals from one kiosk take one reference, not 17, so a
    /// flood from one kiosk cannot push an arrival past ``CheckOutPayload/maxEnds``.
    @Test func aCheckOutNamesTheNewestArrivalOfEachAuthor() {
        let flood = (1...17).map { Self.arrival("Hall", seq: UInt64($0), at: Self.now - 1_000 + UInt64($0)) }
        let honest = Self.arrival("Hall", seq: 4, at: Self.now - 2_000, by: Self.otherKiosk)
        let open = [honest] + flood
        #expect(DoorPolicy.checkOutEnds(open, zone: "Hall", rules: nil) == [honest.ref, flood[16].ref])
        #expect(DoorPolicy.checkOutEnds(open, zone: "Hall", rules: DoorRules()) == [honest.ref, flood[16].ref])
        let rules = DoorRules(zones: [ZoneRule(name: "Annex", exclusive: true)])
        let entering = Self.attempt(Self.lock(rules), zone: "Annex", arrivals: open, open: open)
        #expect(entering == .admit(campaignID: "camp", memberStatus: "Attended", ends: [honest.ref, flood[16].ref]))
    }

    @Test func escrowSharesAddUpToTheCapacity() {
        let shares = (0..<3).map { DoorAttempt.Escrow(ownInside: 0, kiosks: 3, rank: $0).share(of: 10) }
        #expect(shares == [4, 3, 3])
        let rules = DoorRules(zones: [ZoneRule(name: "Hall", capacity: 10, escrow: true)])
        var attempt = DoorAttempt(
            lock: Self.lock(rules),
            zone: "Hall",
            attendee: DoorAttempt.Attendee(key: "a@x.org", admitted: true, arrivals: [], openArrivals: []),
            insideZone: 5,
            nowMillis: Self.now,
            dayStartMillis: Self.dayStart,
            escrow: DoorAttempt.Escrow(ownInside: 2, kiosks: 3, rank: 1)
        )
        #expect(DoorPolicy.decide(attempt).reason == nil)
        attempt.escrow?.ownInside = 3
        #expect(DoorPolicy.decide(attempt) == .refuse(.zoneFull, message: DoorText.doorShareFull))
    }

    @Test func theOrderOfChecksIsFixed() {
        // Full, used up and closed at once: the window speaks first, then entries, then capacity.
        let now = Int64(Self.now)
        let rules = DoorRules(zones: [ZoneRule(name: "Hall", capacity: 1, closesAtMillis: now)], entries: .once)
        let earlier = Self.arrival("Hall", seq: 1)
        #expect(Self.attempt(Self.lock(rules), arrivals: [earlier], inside: 5).reason == .outsideWindow)
        let open = DoorRules(zones: [ZoneRule(name: "Hall", capacity: 1)], entries: .once)
        #expect(Self.attempt(Self.lock(open), arrivals: [earlier], inside: 5).reason == .entriesUsedUp)
    }
}
