import Foundation
import Testing

/// Two organizer devices (`muster venue add-device`) on either side of a partition, each locking,
/// undoing and revoking through real kiosks, then healed (issue 13; README.md, "Organizer devices").
@Suite("Organizer devices", .serialized)
struct OrganizerDevicesEndToEndTests {
    @Test("two devices partitioned each lock, undo and revoke; healed, all kiosks converge on the documented outcome")
    func partitionedDevicesConverge() throws {
        // k2 and k3 know only k1: stopping k1 cuts them apart. k4 joins through k1 and goes away.
        let ports = try (0..<4).map { _ in try freeLoopbackPort() }
        let address = ports.map { "127.0.0.1:\($0)" }
        let k1 = try KioskHarness(name: "k1", listen: address[0], staticPeers: [address[1], address[2]])
        let k2 = try KioskHarness(name: "k2", venueOf: k1, listen: address[1], staticPeers: [address[0]])
        let k3 = try KioskHarness(name: "k3", venueOf: k1, listen: address[2], staticPeers: [address[0]])
        let k4 = try KioskHarness(name: "k4", venueOf: k1, listen: address[3], staticPeers: [address[0]])
        let lab = SyncEndToEndTests.Lab(k1: k1, k2: k2, k3: k3)
        for kiosk in lab.all + [k4] { try kiosk.start() }
        try lab.importAndLock()
        for attendee in ["p1@example.com", "p2@example.com", "p3@example.com"] {
            #expect(try k1.muster(["checkin", attendee]).status == 0)
        }
        try SyncEndToEndTests.waitForEqualDigests(lab.all + [k4])
        try k4.stop()

        // The organizer gives two laptops their own device keys.
        let desks = try ["A", "B"].map { side -> String in
            let directory = k1.directory.appendingPathComponent("laptop-\(side)").path
            let added = try k1.muster([
                "venue", "add-device", "--organizer-key", k1.organizerKey, "--name", "Laptop \(side)", "--out",
                directory,
            ])
            #expect(added.status == 0, "add-device: \(added.stderr)")
            return directory + "/organizer.key"
        }
        // A device key may not enroll kiosks or revoke devices; that stays the organizer key's.
        #expect(
            try k1.muster([
                "venue", "add-device", "--organizer-key", desks[0], "--name", "X", "--out", k1.directory.path + "/x",
            ]).status != 0
        )

        // The partition: each side signs at the same moment in its own chain.
        try k1.stop()
        for (kiosk, key, side, undone) in [
            (k2, desks[0], "Side A", "p1@example.com"), (k3, desks[1], "Side B", "p2@example.com"),
        ] {
            let lock = try kiosk.muster(["lock", "Expo", "--status", side, "--organizer-key", key])
            #expect(lock.status == 0, "lock on \(side): \(lock.stderr)")
            let undo = try kiosk.muster(["undo", undone, "--organizer-key", key])
            #expect(undo.status == 0, "undo on \(side): \(undo.stderr)")
            let revoke = try kiosk.muster(["revoke", "k4", "--organizer-key", key])
            #expect(revoke.status == 0, "revoke on \(side): \(revoke.stderr)")
        }
        #expect(try k2.status()["checkInStatus"] as? String == "Side A")
        #expect(try k3.status()["checkInStatus"] as? String == "Side B")

        // Healed.
        try k1.start()
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 30)
        for kiosk in lab.all {
            let status = try kiosk.status()
            #expect(status["forks"] as? Int == 0)
            // Each device wrote on its own chain, shown as such.
            let roles = (status["authors"] as? [[String: Any]] ?? []).compactMap { $0["role"] as? String }
            #expect(roles.filter { $0 == "organizer device" }.count == 2, "\(roles)")
            // Equal lock versions: the later lock wins (highest version, then timestamp, author, seq).
            #expect(status["checkInStatus"] as? String == "Side B")
            for (attendee, checkedIn) in [
                ("p1@example.com", false), ("p2@example.com", false), ("p3@example.com", true),
            ] {
                let lookup = try kiosk.muster(["lookup", attendee, "--json"]).stdout
                #expect(
                    lookup.contains("\"checkedIn\" : \(checkedIn)"),
                    "\(attendee) on \(kiosk.directory.lastPathComponent)"
                )
            }
            // Both revocations of k4 hold everywhere.
            let again = try kiosk.muster(["revoke", "k4", "--organizer-key", k1.organizerKey])
            #expect(again.status != 0 && again.stderr.contains("already revoked"), "\(again.stderr)")
        }
        // Both sides rotated the network key to the same generation with different keys; every
        // kiosk keeps the same one, so a new session between k2 and k3's side still forms.
        try k3.stop()
        try k3.start()
        try waitUntil("k3 is in session with k1 again", timeout: 20) {
            (try k3.status()["peers"] as? [String])?.count == 1
        }
        #expect(try k2.muster(["checkin", "p4@example.com"]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 20)
        for kiosk in lab.all { try kiosk.stop() }
    }

    @Test("the organizer key itself on both sides of a partition: healed, all kiosks keep the earlier side and the organizer goes on")
    func organizerKeyOnBothSidesConverges() throws {
        let ports = try (0..<3).map { _ in try freeLoopbackPort() }
        let address = ports.map { "127.0.0.1:\($0)" }
        let k1 = try KioskHarness(name: "k1", listen: address[0], staticPeers: [address[1], address[2]])
        let k2 = try KioskHarness(name: "k2", venueOf: k1, listen: address[1], staticPeers: [address[0]])
        let k3 = try KioskHarness(name: "k3", venueOf: k1, listen: address[2], staticPeers: [address[0]])
        let lab = SyncEndToEndTests.Lab(k1: k1, k2: k2, k3: k3)
        for kiosk in lab.all { try kiosk.start() }
        try lab.importAndLock()
        for attendee in ["p1@example.com", "p2@example.com", "p3@example.com"] {
            #expect(try k1.muster(["checkin", attendee]).status == 0)
        }
        try SyncEndToEndTests.waitForEqualDigests(lab.all)

        // The partition: one organizer key, two laptops, one on each side; side A signs first.
        try k1.stop()
        for (kiosk, side, undone) in [(k2, "Side A", "p1@example.com"), (k3, "Side B", "p2@example.com")] {
            let lock = try kiosk.muster(["lock", "Expo", "--status", side, "--organizer-key", k1.organizerKey])
            #expect(lock.status == 0, "lock on \(side): \(lock.stderr)")
            let undo = try kiosk.muster(["undo", undone, "--organizer-key", k1.organizerKey])
            #expect(undo.status == 0, "undo on \(side): \(undo.stderr)")
        }
        #expect(try k2.status()["checkInStatus"] as? String == "Side A")
        #expect(try k3.status()["checkInStatus"] as? String == "Side B")

        // Healed: one state everywhere, side A's (its lock was stamped first); side B's branch is gone.
        try k1.start()
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 30)
        for kiosk in lab.all {
            let status = try kiosk.status()
            #expect(status["forks"] as? Int == 1, "\(kiosk.directory.lastPathComponent)")
            #expect(status["checkInStatus"] as? String == "Side A")
            for (attendee, checkedIn) in [
                ("p1@example.com", false), ("p2@example.com", true), ("p3@example.com", true),
            ] {
                let lookup = try kiosk.muster(["lookup", attendee, "--json"]).stdout
                #expect(
                    lookup.contains("\"checkedIn\" : \(checkedIn)"),
                    "\(attendee) on \(kiosk.directory.lastPathComponent)"
                )
            }
        }
        let log = try String(contentsOfFile: k3.logPath, encoding: .utf8)
        #expect(log.contains("FORK: the organizer key signed two versions of one seq"))
        // The organizer goes on from the kept chain, also on the side that lost.
        let again = try k3.muster(["lock", "Expo", "--status", "After", "--organizer-key", k1.organizerKey])
        #expect(again.status == 0, "\(again.stderr)")
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 20)
        for kiosk in lab.all { #expect(try kiosk.status()["checkInStatus"] as? String == "After") }
        for kiosk in lab.all { try kiosk.stop() }
    }
}
