import MusterCore
import Testing

@testable import MusterRules

/// What `muster lock` signs into an escrow zone and warns about (issue 32, items 10 and 12).
@Suite("Zone doors")
struct ZoneDoorsTests {
    static func key(_ byte: UInt8) -> AuthorID { AuthorID(bytes: [UInt8](repeating: byte, count: 32))! }

    static let roster = [
        RosterEntry(kiosk: key(3), name: "k3", location: "Lab", revokedWatermark: nil),
        RosterEntry(kiosk: key(1), name: "k1", location: "Lab", revokedWatermark: nil),
        RosterEntry(kiosk: key(2), name: "stolen", location: "Lab", revokedWatermark: 4),
        RosterEntry(kiosk: key(4), name: "desk", location: "Lab", revokedWatermark: nil, role: .organizerDevice),
        RosterEntry(kiosk: key(5), name: "k5", location: "Hall A", revokedWatermark: nil),
    ]

    @Test func escrowZonesListTheirKiosksAscendingAndNothingElse() {
        let rules = DoorRules(zones: [
            ZoneRule(name: "Lab", capacity: 10, escrow: true), ZoneRule(name: "Hall A", capacity: 100),
            ZoneRule(name: "Annex", capacity: 5, escrow: true),
        ])
        let signed = ZoneDoors(roster: Self.roster).signedInto(rules)
        #expect(signed.zones[0].doors == [Self.key(1), Self.key(3)], "no revoked kiosk, no device, by key")
        #expect(signed.zones[1].doors == nil, "a zone without escrow lists no doors")
        #expect(signed.zones[2].doors == [], "an escrow zone nobody stands in: no door has a share")
        #expect(signed.encodingVersion == 2)
        #expect(
            ZoneDoors(roster: Self.roster).signedInto(DoorRules(zones: [ZoneRule(name: "Lab")])).encodingVersion == 1
        )
    }

    @Test func aZoneNoKioskStandsInIsWarnedWithTheRostersLocations() {
        let rules = DoorRules(zones: [
            ZoneRule(name: "Lab", capacity: 10), ZoneRule(name: "Hal A", capacity: 100),
            ZoneRule(name: "Annex", capacity: 5, escrow: true),
        ])
        let warnings = ZoneDoors(roster: Self.roster).warnings(rules)
        #expect(warnings.count == 2)
        #expect(warnings[0].hasPrefix("zone 'Hal A' names no kiosk") && warnings[0].contains("'Hall A', 'Lab'"))
        #expect(warnings[1].contains("'Annex'") && warnings[1].contains("no door has a share"))
        #expect(ZoneDoors(roster: []).warnings(rules).allSatisfy { $0.contains("no kiosk is enrolled yet") })
    }
}
