import Foundation
import MusterCore
import MusterTime
import Testing

@testable import MusterClient
@testable import MusterRules

@Suite("Door rules on the command line")
struct DoorRulesOptionsTests {
    @Test func noDoorOptionMeansNoRules() throws {
        #expect(try DoorRulesOptions.parse(zones: [], entries: nil, noReEntry: false) == nil)
    }

    @Test func zonesEntriesAndReEntryParse() throws {
        let rules = try DoorRulesOptions.parse(
            zones: ["Hall A=200", "Annex, exclusive", "Lab=20,exclusive,opens=2026-11-22T09:00:00Z"],
            entries: "2",
            noReEntry: true
        )
        #expect(rules?.zones.map(\.name) == ["Hall A", "Annex", "Lab"])
        #expect(rules?.zones.map(\.capacity) == [200, nil, 20])
        #expect(rules?.zones.map(\.exclusive) == [false, true, true])
        #expect(rules?.zones[2].opensAtMillis == 1_795_338_000_000)
        #expect(rules?.entries == .perDay(2))
        #expect(rules?.reEntry == false)
        #expect(try DoorRulesOptions.parse(zones: [], entries: "once", noReEntry: false)?.entries == .once)
    }

    @Test(arguments: ["=10", "Hall=ten", "Hall=10,vip", "Hall,closes=noon"])
    func badZonesAreUsageErrors(_ text: String) {
        #expect(throws: ClientError.self) { try DoorRulesOptions.parse(zones: [text], entries: nil, noReEntry: false) }
    }

    @Test func aZoneGivenTwiceOrZeroEntriesIsRefused() {
        #expect(throws: ClientError.self) {
            try DoorRulesOptions.parse(zones: ["Hall=1", "Hall=2"], entries: nil, noReEntry: false)
        }
        #expect(throws: ClientError.self) { try DoorRulesOptions.parse(zones: [], entries: "0", noReEntry: false) }
    }

    @Test func theLockMessageDescribesTheRules() {
        let rules = DoorRules(zones: [ZoneRule(name: "Hall", capacity: 5), ZoneRule(name: "Annex", exclusive: true)])
        #expect(
            OrganizerActions.describe(rules) == "zones Hall (5), Annex (exclusive); entries unlimited"
        )
    }
}

@Suite("Occupancy view")
struct OccupancyViewTests {
    static let occupancy = Occupancy(
        campaignID: "c",
        campaignName: "Doors",
        zones: [
            ZoneOccupancy(zone: "Hall A", inside: 120, capacity: 200),
            ZoneOccupancy(zone: "Annex\u{1B}[31m", inside: 12, capacity: 10),
            ZoneOccupancy(zone: "Lobby", inside: 3, capacity: nil),
        ],
        inside: 130,
        capacity: nil
    )

    @Test func linesShowInsideCapacityAndOvershootWithin80Columns() {
        let lines = OccupancyText.lines(Self.occupancy)
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("Hall A                   120 / 200"))
        #expect(lines[1].contains(String(repeating: "█", count: 14) + String(repeating: "░", count: 10) + "  60%"))
        #expect(lines[2].hasSuffix("120% +2 over"))
        #expect(!lines[2].contains("\u{1B}"), "zone names are sanitized")
        #expect(lines[4].hasPrefix("Venue (anywhere)         130 / -"))
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(ZoneOccupancy(zone: "x", inside: 12, capacity: 10).over == 2)
    }

    @Test func watchRefreshesOnTheInjectedClock() async throws {
        let clock = ManualClock()
        let reads = LockedCounter()
        let watch = OccupancyWatch(interval: .seconds(2)) { () throws(ClientError) in
            reads.increment()
            return Self.occupancy
        }
        let shown = LockedCounter()
        let task = Task {
            try await watch.run(time: clock, frames: 3) { _, refresh in
                #expect(refresh)
                shown.increment()
            }
        }
        #expect(await clock.waitForSleepers(1))
        #expect(shown.value == 1, "shown at once, then waits for the clock")
        clock.advance(by: .seconds(2))
        #expect(await clock.waitForSleepers(1))
        #expect(shown.value == 2)
        clock.advance(by: .seconds(2))
        try await task.value
        #expect(shown.value == 3 && reads.value == 3)
    }
}

/// A counter shared with a watch task.
///
/// `@unchecked Sendable`: every access holds `lock`.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
