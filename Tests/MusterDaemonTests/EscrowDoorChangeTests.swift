import Foundation
import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterDaemon

/// Escrow's promise when a zone's doors change during a partition (issue 32, item 10): `Lab=10,escrow`
/// with doors A and B; B is cut off; C is enrolled into Lab and meets only A. Before the fix each
/// door split the capacity among the kiosks its own roster placed in the zone, so B kept 5 while A
/// and C split 10 three ways: 12 inside after the heal. Now a door's share comes from the doors the
/// lock names, so C admits nobody until a new lock names it.
@Suite("Escrow when a zone's doors change")
struct EscrowDoorChangeTests {
    @Test func aDoorEnrolledDuringAPartitionGetsNoShareUntilANewLockNamesIt() throws {
        let v = try DoorVenue(zones: ["Lab", "Lab"])
        try v.setUp(attendees: 40, rules: nil)
        let lab = DoorRules(zones: [ZoneRule(name: "Lab", capacity: 10, escrow: true)])
        try v.lockAsOrganizer(lab)
        // From here B (1) is cut off. C is enrolled into Lab and is in session with A (0) only.
        let c = try v.enroll(zone: "Lab", reaching: [0])
        var admitted = [0, 0, 0]
        var refusals: [ControlResponse] = []
        for index in 0..<10 {
            for (door, offset) in [(1, 0), (0, 10), (c, 20)] {
                let response = v.scan(door, "a\(offset + index)@x.org")
                if response.outcome == .checkedIn { admitted[door] += 1 } else { refusals.append(response) }
            }
            try v.sync(from: v.kiosks[0], to: v.kiosks[c])
            try v.sync(from: v.kiosks[c], to: v.kiosks[0])
        }
        #expect(admitted[1] == 5, "B admits its share of the lock's two doors")
        #expect(admitted[0] == 5, "A admits its share of the lock's two doors")
        #expect(admitted[c] == 0, "C is not among the lock's doors: no share")
        #expect(refusals.allSatisfy { $0.reason == "zone_full" })
        let cRefusal = v.scan(c, "a39@x.org")
        #expect(cRefusal.reason == "zone_full")
        #expect(cRefusal.message?.contains("lock") == true, "C's refusal says why: \(cRefusal.message ?? "")")
        #expect(try v.scans(on: c).values.contains { $0.attendeeKey == "a39@x.org" && $0.reason == .zoneFull })

        // The partition heals: every replica holds every delta, and the zone holds at most 10.
        try v.meetAll()
        try v.syncAll()
        for kiosk in v.kiosks.indices {
            #expect(try v.inside(kiosk, zone: "Lab") == admitted.reduce(0, +))
            #expect(try v.inside(kiosk, zone: "Lab") <= 10)
            #expect(try v.kiosks[kiosk].replica.digest() == v.kiosks[0].replica.digest())
        }

        // The honest path: a new lock names C. Once B's attendees leave, C admits its own share.
        try v.lockAsOrganizer(lab)
        for index in 0..<5 { #expect(v.checkOut(1, "a\(index)@x.org").outcome == .checkedOut) }
        try v.syncAll()
        var cAdmitted = 0
        for index in 30..<35 where v.scan(c, "a\(index)@x.org").outcome == .checkedIn { cAdmitted += 1 }
        #expect(cAdmitted >= 3, "C's share of three doors is 3 or 4")
        try v.syncAll()
        for kiosk in v.kiosks.indices { #expect(try v.inside(kiosk, zone: "Lab") <= 10) }
    }
}
