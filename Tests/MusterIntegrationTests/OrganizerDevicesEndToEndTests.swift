import Foundation
import Testing

/// Two organizer devices (`muster venue add-device`) on either side of a partition, each locking,
/// undoing and revoking through real kiosks, then healed (issue 13; docs/organizer.md, "Organizer devices").
@Suite("Organizer devices", .serialized)
struct OrganizerDevicesEndToEndTests {
    /// k1..k3 running with the list imported, locked and p1..p3 checked in at k1, all synced. k2
    /// and k3 know only k1: stopping k1 cuts them apart. A fourth kiosk joins through k1.
    static func venue(withFourth: Bool) throws -> (SyncEndToEndTests.Lab, KioskHarness?) {
        let ports = try (0..<(withFourth ? 4 : 3)).map { _ in try freeLoopbackPort() }
        let address = ports.map { "127.0.0.1:\($0)" }
        let k1 = try KioskHarness(name: "k1", listen: address[0], staticPeers: [address[1], address[2]])
        let k2 = try KioskHarness(name: "k2", venueOf: k1, listen: address[1], staticPeers: [address[0]])
        let k3 = try KioskHarness(name: "k3", venueOf: k1, listen: address[2], staticPeers: [address[0]])
        let k4 =
            withFourth ? try KioskHarness(name: "k4", venueOf: k1, listen: address[3], staticPeers: [address[0]]) : nil
        let lab = SyncEndToEndTests.Lab(k1: k1, k2: k2, k3: k3)
        let all = lab.all + (k4.map { [$0] } ?? [])
        for kiosk in all { try kiosk.start() }
        try lab.importAndLock()
        for attendee in ["p1@example.com", "p2@example.com", "p3@example.com"] {
            #expect(try k1.muster(["checkin", attendee]).status == 0)
        }
        try SyncEndToEndTests.waitForEqualDigests(all)
        return (lab, k4)
    }

    /// A second laptop holding its own copy of the organizer key and venue files (so its own record
    /// of what it signed, `KEY.signed`): the organizer key on two machines. Returns the key's path.
    static func secondLaptop(of k1: KioskHarness) throws -> String {
        let laptop = k1.directory.appendingPathComponent("laptop-B")
        try FileManager.default.createDirectory(at: laptop, withIntermediateDirectories: true)
        let key = laptop.appendingPathComponent("organizer.key").path
        try FileManager.default.copyItem(atPath: k1.organizerKey, toPath: key)
        try FileManager.default.copyItem(
            atPath: k1.organizerVenuePath,
            toPath: laptop.appendingPathComponent("venue.toml").path
        )
        return key
    }

    /// k1 stops, cutting k2 (side A) from k3 (side B). On each side in turn, that side's key locks
    /// with the side's name as status and undoes one check-in (p1 on side A, p2 on side B), and
    /// revokes k4 when asked. Then k1 comes back and the three must converge.
    static func splitSignAndHeal(_ lab: SyncEndToEndTests.Lab, keys: [String], revoke: Bool) throws {
        try lab.k1.stop()
        for (kiosk, key, side, undone) in [
            (lab.k2, keys[0], "Side A", "p1@example.com"), (lab.k3, keys[1], "Side B", "p2@example.com"),
        ] {
            let lock = try kiosk.muster(["lock", "Expo", "--status", side, "--organizer-key", key])
            #expect(lock.status == 0, "lock on \(side): \(lock.stderr)")
            let undo = try kiosk.muster(["undo", undone, "--organizer-key", key])
            #expect(undo.status == 0, "undo on \(side): \(undo.stderr)")
            if revoke {
                let revoked = try kiosk.muster(["revoke", "k4", "--organizer-key", key])
                #expect(revoked.status == 0, "revoke on \(side): \(revoked.stderr)")
            }
        }
        #expect(try lab.k2.status()["checkInStatus"] as? String == "Side A")
        #expect(try lab.k3.status()["checkInStatus"] as? String == "Side B")
        try lab.k1.start()
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 30)
    }

    @Test("two devices partitioned each lock, undo and revoke; healed, all kiosks converge on the documented outcome")
    func partitionedDevicesConverge() throws {
        // k4 joined through k1 (``venue(withFourth:)``) and goes away.
        let (lab, fourth) = try Self.venue(withFourth: true)
        let (k1, k2, k3) = (lab.k1, lab.k2, lab.k3)
        let k4 = try #require(fourth)
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

        // The partition: each side signs at the same moment in its own chain; then healed.
        try Self.splitSignAndHeal(lab, keys: desks, revoke: true)
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

    @Test(
        "the organizer key itself on both sides of a partition: healed, all kiosks keep the earlier side and the organizer goes on"
    )
    func organizerKeyOnBothSidesConverges() throws {
        let (lab, _) = try Self.venue(withFourth: false)
        let (k1, k2, k3) = (lab.k1, lab.k2, lab.k3)

        // The partition: one organizer key, two laptops, one on each side; side A signs first.
        // Healed: one state everywhere, side A's (its lock was stamped first); side B's branch is gone.
        // Each laptop holds its own copy of the key file, so each keeps its own record of what it
        // signed (`KEY.signed`): one file used on both sides would refuse to fork (see
        // OrganizerSignedHeadLiveTests).
        let copyB = try Self.secondLaptop(of: k1)
        try Self.splitSignAndHeal(lab, keys: [k1.organizerKey, copyB], revoke: false)
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
