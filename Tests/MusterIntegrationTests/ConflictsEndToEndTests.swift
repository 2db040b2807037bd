import Foundation
import Testing

/// What a partition let through twice (issue 37): three real kiosks on loopback, the lock with one
/// entry per zone. k1, the only link between k2 and k3, goes away; both admit the same attendee;
/// after the heal every kiosk reports the same one conflict, counts it in `status` and marks it in
/// the audit export.
@Suite("Conflicts a partition let through", .serialized)
struct ConflictsEndToEndTests {
    @Test("cut, admit on both sides, heal: every kiosk reports exactly the one double")
    func cutAdmitHealReport() throws {
        let lab = try SyncEndToEndTests.Lab()
        for kiosk in lab.all { try kiosk.start() }
        defer { for kiosk in lab.all { try? kiosk.stop() } }
        try waitUntil("k1 is in session with k2 and k3", timeout: 20) {
            (try lab.k1.status()["peers"] as? [String])?.count == 2
        }
        try lab.importAndLock()
        let lock = try lab.k1.muster(["lock", "Expo", "--entries", "once", "--organizer-key", lab.k1.organizerKey])
        #expect(lock.status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all)
        #expect(try lab.k1.muster(["checkin", "p3@example.com"]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all)
        let heard = try lab.k2.muster(["checkin", "p3@example.com"])
        #expect(heard.status != 0, "heard: refused, no conflict: \(heard.stdout)")

        try lab.k1.stop()
        #expect(try lab.k2.muster(["checkin", "p1@example.com"]).status == 0)
        #expect(try lab.k3.muster(["checkin", "p1@example.com"]).status == 0, "k3 has not heard k2's entry")
        #expect(try lab.k3.muster(["checkin", "p2@example.com"]).status == 0)
        try lab.k1.start()
        try SyncEndToEndTests.waitForEqualDigests(lab.all)

        var reports: [String] = []
        for kiosk in lab.all {
            let report = try kiosk.muster(["report", "conflicts", "--json"])
            #expect(report.status == 0, "\(report.stderr)")
            reports.append(report.stdout)
            let json = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
            let conflicts = json?["conflicts"] as? [[String: Any]] ?? []
            #expect(conflicts.count == 1, "\(report.stdout)")
            #expect(conflicts.first?["kind"] as? String == "entered_twice")
            #expect(conflicts.first?["attendee"] as? String == "p1@example.com")
            #expect(conflicts.first?["name"] as? String == "First1 Last1")
            let doors = [conflicts.first?["first"], conflicts.first?["second"]].compactMap {
                ($0 as? [String: Any])?["kiosk"] as? String
            }
            #expect(Set(doors) == ["k2", "k3"], "\(doors)")
            #expect(try kiosk.status()["conflicts"] as? Int == 1)
            let audit = try kiosk.muster(["export", "audit"]).stdout.split(separator: "\r\n")
            #expect(audit.filter { $0.hasSuffix(",entered_twice,") }.count == 1, "\(audit)")
            let text = try kiosk.muster(["report", "conflicts"]).stdout
            #expect(text.contains("Conflicts in Expo: 1") && text.contains("entered twice"), "\(text)")
        }
        #expect(Set(reports).count == 1, "every kiosk reports the same")
    }
}
