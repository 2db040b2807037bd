import Foundation
import Testing

/// Two real kiosks at the same door (zone "Main entrance", capacity 2), syncing over loopback:
/// the lock's door rules reach both, each refuses from its own replica once the zone is full, the
/// refusal's reason reaches `muster checkin --json`, and the audit, occupancy and arrivals views
/// agree on both kiosks.
@Suite("Door rules end to end", .serialized)
struct DoorEndToEndTests {
    @Test("capacity across two kiosks: refusal reason in --json, audit and occupancy on both")
    func capacityAcrossTwoKiosks() throws {
        let lab = try SyncEndToEndTests.Lab()
        let kiosks = [lab.k1, lab.k2]
        for kiosk in lab.all { try kiosk.start() }
        defer { for kiosk in lab.all { try? kiosk.stop() } }
        try waitUntil("k1 is in session with k2 and k3", timeout: 20) {
            (try lab.k1.status()["peers"] as? [String])?.count == 2
        }
        try lab.importAndLock()
        let lock = try lab.k1.muster([
            "lock", "Expo", "--zone", "Main entrance=2", "--entries", "once", "--organizer-key", lab.k1.organizerKey,
        ])
        #expect(lock.status == 0)
        #expect(lock.stdout.contains("zones Main entrance (2); entries once"))
        try SyncEndToEndTests.waitForEqualDigests(lab.all)

        #expect(try lab.k1.muster(["checkin", "p1@example.com"]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all)
        #expect(try lab.k2.muster(["checkin", "p2@example.com"]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all)

        let full = try lab.k1.muster(["checkin", "p3@example.com", "--json"])
        #expect(full.status == 4)
        #expect(full.stdout.contains("\"reason\" : \"zone_full\""))
        let human = try lab.k2.muster(["checkin", "p3@example.com"])
        #expect(human.status == 4)
        #expect(human.stdout.contains("This area is full right now."))
        try SyncEndToEndTests.waitForEqualDigests(lab.all)

        for kiosk in kiosks {
            let audit = try kiosk.muster(["export", "audit"]).stdout
            let lines = audit.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "Time,Kiosk,Zone,Campaign,Attendee,Outcome,Reason,Count,Undone,Conflict,Session")
            #expect(lines.filter { $0.contains(",admitted,") }.count == 2)
            #expect(lines.filter { $0.contains(",p3@example.com,refused,zone_full,1,") }.count == 2)
            let occupancy = try kiosk.muster(["occupancy", "--json"]).stdout
            #expect(occupancy.contains("\"inside\" : 2"))
            let status = try kiosk.muster(["status"]).stdout
            #expect(status.contains("Main entrance"))
            let chart = try kiosk.muster(["report", "arrivals", "--bucket", "1h"]).stdout
            #expect(chart.contains("Arrivals in Main entrance per 60 min"))
            #expect(chart.split(separator: "\n").allSatisfy { $0.count <= 80 })
        }
    }
}
