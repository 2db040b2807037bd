import MusterCore
import Testing

@testable import MusterRules

/// What partitions let through twice (issue 37): the campaign's presences replayed in their one
/// order under the lock's rules, as doors that had heard everything would have judged them.
@Suite("Conflicts")
struct ConflictsTests {
    static func door(_ byte: UInt8) -> AuthorID { AuthorID(bytes: [UInt8](repeating: byte, count: 32))! }

    /// A presence by door `byte` (kiosk "k\(byte)") in `zone` at second `at`.
    static func presence(
        _ key: String,
        door byte: UInt8,
        seq: UInt64,
        at: UInt64,
        zone: String = "Hall",
        kind: DeltaKind = .checkIn
    ) -> Conflicts.Presence {
        Conflicts.Presence(
            attendeeKey: key,
            record: PresenceRecord(
                ref: DeltaRef(author: door(byte), seq: seq),
                kind: kind,
                hlc: HLC(physicalMillis: 1_000_000 + at * 1_000, logical: 0),
                kioskName: "k\(byte)",
                location: zone,
                memberStatus: "Attended"
            )
        )
    }

    @Test func withoutRulesACheckInWhileInsideAnywhereIsTheConflict() {
        let found = Conflicts.find(
            presences: [
                Self.presence("ada", door: 3, seq: 1, at: 5, zone: "Foyer"),
                Self.presence("ada", door: 2, seq: 1, at: 2),
                Self.presence("bob", door: 2, seq: 2, at: 3),
                Self.presence("bob", door: 2, seq: 3, at: 4, kind: .checkOut),
                Self.presence("bob", door: 3, seq: 2, at: 6),
            ],
            badges: [],
            rules: nil
        )
        #expect(found.count == 1)
        #expect(found.first?.kind == .insideTwice && found.first?.attendeeKey == "ada")
        #expect(found.first?.first?.kioskName == "k2" && found.first?.second.kioskName == "k3")
        #expect(found.first?.zone == "", "without rules the venue is one zone")
    }

    /// `--entries 2` a day: the third entry of a day is the conflict; a new day counts again. Days
    /// here are of 10 s (`dayStart`), so the test needs no time zone.
    @Test func beyondTheDaysEntriesIsAConflictAndANewDayCountsAgain() {
        let presences = [
            Self.presence("ada", door: 2, seq: 1, at: 1),
            Self.presence("ada", door: 2, seq: 2, at: 2, kind: .checkOut),
            Self.presence("ada", door: 3, seq: 1, at: 3),
            Self.presence("ada", door: 3, seq: 2, at: 4, kind: .checkOut),
            Self.presence("ada", door: 2, seq: 3, at: 5),
            Self.presence("ada", door: 2, seq: 4, at: 6, kind: .checkOut),
            Self.presence("ada", door: 3, seq: 3, at: 11),
        ]
        let found = Conflicts.find(
            presences: presences,
            badges: [],
            rules: DoorRules(entries: .perDay(2)),
            dayStart: { Int64($0 / 10_000 * 10_000) }
        )
        #expect(found.map(\.kind) == [.entriesExceeded], "\(found)")
        #expect(found.first?.first?.ref.seq == 1 && found.first?.second.ref == DeltaRef(author: Self.door(2), seq: 3))
        let three = Conflicts.find(
            presences: presences,
            badges: [],
            rules: DoorRules(entries: .perDay(3)),
            dayStart: { Int64($0 / 10_000 * 10_000) }
        )
        #expect(three.isEmpty, "three on the first day, one on the next")
        let oneLongDay = Conflicts.find(presences: presences, badges: [], rules: DoorRules(entries: .perDay(3)))
        #expect(oneLongDay.map(\.second.ref.seq) == [3], "all four on one (UTC) day: the fourth")
    }

    @Test func underOnceASecondEntryIsAConflictEvenAfterLeaving() {
        let presences = [
            Self.presence("ada", door: 2, seq: 1, at: 1),
            Self.presence("ada", door: 2, seq: 2, at: 2, kind: .checkOut),
            Self.presence("ada", door: 3, seq: 1, at: 3),
            Self.presence("ada", door: 3, seq: 2, at: 4, zone: "Lab"),
        ]
        let once = Conflicts.find(presences: presences, badges: [], rules: DoorRules(entries: .once))
        #expect(once.map(\.kind) == [.enteredTwice] && once.first?.zone == "Hall")
        #expect(once.first?.first?.ref.seq == 1 && once.first?.second.ref == DeltaRef(author: Self.door(3), seq: 1))
        let noReEntry = Conflicts.find(presences: presences, badges: [], rules: DoorRules(reEntry: false))
        #expect(noReEntry.map(\.kind) == [.enteredTwice])
        #expect(Conflicts.find(presences: presences, badges: [], rules: DoorRules()).isEmpty, "re-entry is allowed")
    }

    @Test func overCapacityCountsOnlyWhereEscrowIsOff() {
        let presences = [
            Self.presence("ada", door: 2, seq: 1, at: 1),
            Self.presence("bob", door: 3, seq: 1, at: 2),
            Self.presence("cy", door: 2, seq: 2, at: 3),
            Self.presence("ada", door: 2, seq: 3, at: 4, kind: .checkOut),
            Self.presence("bob", door: 3, seq: 2, at: 5, kind: .checkOut),
            Self.presence("di", door: 3, seq: 3, at: 6),
        ]
        let rules = DoorRules(zones: [ZoneRule(name: "Hall", capacity: 2)])
        let found = Conflicts.find(presences: presences, badges: [], rules: rules)
        #expect(found.count == 1)
        #expect(found.first?.kind == .overCapacity && found.first?.attendeeKey == "cy")
        #expect(found.first?.inside == 3 && found.first?.capacity == 2 && found.first?.first == nil)
        let escrow = DoorRules(zones: [ZoneRule(name: "Hall", capacity: 2, escrow: true)])
        #expect(Conflicts.find(presences: presences, badges: [], rules: escrow).isEmpty)
    }

    @Test func enteringAnExclusiveZoneLeavesTheOthers() {
        let presences = [
            Self.presence("ada", door: 2, seq: 1, at: 1),
            Self.presence("ada", door: 4, seq: 1, at: 2, zone: "Annex"),
            Self.presence("ada", door: 3, seq: 1, at: 3),
        ]
        let rules = DoorRules(zones: [ZoneRule(name: "Annex", exclusive: true)])
        #expect(Conflicts.find(presences: presences, badges: [], rules: rules).isEmpty)
        #expect(Conflicts.find(presences: presences, badges: [], rules: DoorRules()).map(\.kind) == [.insideTwice])
    }

    @Test func aSecondSelfServiceBadgeIsAConflictAndAReprintIsNot() {
        func badge(_ byte: UInt8, _ at: UInt64, _ reason: BadgePayload.Reason) -> Conflicts.Badge {
            Conflicts.Badge(
                attendeeKey: "ada",
                record: BadgeRecord(
                    ref: DeltaRef(author: Self.door(byte), seq: at),
                    hlc: HLC(physicalMillis: 1_000_000 + at * 1_000, logical: 0),
                    reason: reason,
                    kioskName: "k\(byte)",
                    location: "Hall"
                )
            )
        }
        let found = Conflicts.find(
            presences: [],
            badges: [badge(3, 9, .selfService), badge(2, 1, .selfService), badge(2, 5, .reprint)],
            rules: nil
        )
        #expect(found.map(\.kind) == [.badgeTwice])
        #expect(found.first?.first?.kioskName == "k2" && found.first?.second.kioskName == "k3")
    }

    @Test func theOrderIsTheReplicasNotTheArrivalOrder() {
        let presences = [
            Self.presence("ada", door: 3, seq: 1, at: 2),
            Self.presence("ada", door: 2, seq: 1, at: 2),
        ]
        let one = Conflicts.find(presences: presences, badges: [], rules: nil)
        let other = Conflicts.find(presences: presences.reversed(), badges: [], rules: nil)
        #expect(one == other)
        #expect(one.first?.first?.kioskName == "k2", "equal times: the smaller author first")
    }
}
