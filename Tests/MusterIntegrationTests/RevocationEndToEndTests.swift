import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore
import Testing

/// Revocations never destroy an acknowledged check-in (SECURITY.md, "What a revocation can
/// destroy"): real `musterd` processes on loopback, real keys, the real protocol.
@Suite("Revocations destroy nothing acknowledged", .serialized)
struct RevocationEndToEndTests {
    /// The kiosk's replica, read-only, as `muster` reads it (the daemon may be stopped).
    static func replica(_ kiosk: KioskHarness) throws -> Replica {
        try Replica.openReadOnly(
            path: kiosk.directory.appendingPathComponent("state/replica.sqlite").path,
            policy: try JoinedVenue(path: kiosk.kioskVenuePath).policy
        )
    }

    /// Who is checked in to "Expo" in the kiosk's replica.
    static func checkedIn(_ kiosk: KioskHarness) throws -> Set<String> {
        try replica(kiosk).view { view in
            guard let campaign = try view.campaign(named: "Expo") else { return [] }
            return Set(try view.attendees(campaignID: campaign.id, checkedInOnly: true).map(\.email))
        }
    }

    /// Waits for the kiosk's daemon to stop by itself and returns its exit status.
    static func waitForStop(_ kiosk: KioskHarness) throws -> Int32 {
        let daemon = try #require(kiosk.daemon)
        try waitUntil("\(kiosk.directory.lastPathComponent) stops by itself", timeout: 20) { !daemon.isRunning }
        kiosk.daemon = nil
        return daemon.terminationStatus
    }

    static func file(_ kiosk: KioskHarness, _ name: String) -> Bool {
        FileManager.default.fileExists(atPath: kiosk.directory.appendingPathComponent("state/\(name)").path)
    }

    @Test("a device revoking two online kiosks stops both and wipes nothing; revoking the device gives them back")
    func aDeviceStopsButNeverWipes() throws {
        let (lab, _) = try OrganizerDevicesEndToEndTests.venue(withFourth: false)
        let (k1, k2, k3) = (lab.k1, lab.k2, lab.k3)
        let checkIns: Set = ["p1@example.com", "p2@example.com", "p3@example.com"]
        let directory = k1.directory.appendingPathComponent("laptop").path
        let added = try k1.muster([
            "venue", "add-device", "--organizer-key", k1.organizerKey, "--name", "Laptop", "--out", directory,
        ])
        #expect(added.status == 0, "add-device: \(added.stderr)")
        let device = directory + "/organizer.key"

        // The thief's laptop revokes k2, then k1 itself, through k1's control socket.
        for target in ["k2", "k1"] {
            let revoked = try k1.muster(["revoke", target, "--organizer-key", device])
            #expect(revoked.status == 0, "revoke \(target): \(revoked.stderr)")
        }
        for kiosk in [k1, k2] {
            #expect(try Self.waitForStop(kiosk) == 78)
            #expect(Self.file(kiosk, "STOPPED"), "the marker says why it stopped")
            #expect(!Self.file(kiosk, "REVOKED"))
            for kept in ["replica.sqlite", "kiosk.key", "enrollment.cert"] {
                #expect(Self.file(kiosk, kept), "\(kept) kept on \(kiosk.directory.lastPathComponent)")
            }
            #expect(FileManager.default.fileExists(atPath: kiosk.kioskVenuePath))
            #expect(try Self.checkedIn(kiosk) == checkIns)
            #expect(kiosk.daemonLog().contains("organizer device, which may stop a kiosk but never wipe it"))
            // Status and doctor say why, from the marker.
            let stopped = try kiosk.status()["stoppedAfterRevocation"] as? String
            #expect(stopped?.contains("organizer device") == true, "\(stopped ?? "none")")
            #expect(try kiosk.muster(["doctor"]).stdout.contains("stopped after a revocation and kept all its data"))
            #expect(!kiosk.daemonLog().contains("wiped"))
            // It does not start again by itself.
            #expect(throws: (any Error).self) { try kiosk.start() }
        }

        // The organizer revokes the stolen laptop on k3, from before its first revocation; k1 and k2 are allowed to start again, and
        // the venue is whole: both kiosks enrolled, every check-in everywhere, one digest.
        // Watermark 0: nothing the laptop signed counts (it signed nothing before the theft).
        let revokedDevice = try k3.muster(["revoke", "Laptop", "--watermark", "0", "--organizer-key", k1.organizerKey])
        #expect(revokedDevice.status == 0, "revoke the device: \(revokedDevice.stderr)")
        for kiosk in [k1, k2] {
            try FileManager.default.removeItem(at: kiosk.directory.appendingPathComponent("state/STOPPED"))
            try kiosk.start()
        }
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 30)
        // The honest control: a check-in after the heal reaches every kiosk.
        #expect(try k2.muster(["checkin", "p4@example.com"]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 20)
        for kiosk in lab.all {
            #expect(try Self.checkedIn(kiosk) == checkIns.union(["p4@example.com"]))
            let roster = try Self.replica(kiosk).roster()
            #expect(roster.filter { ["k1", "k2"].contains($0.name) && $0.revokedWatermark == nil }.count == 2)
        }
        for kiosk in lab.all { try kiosk.stop() }
    }

    @Test(
        "the organizer key on both sides, the kiosk cut off revoked on the later side: it keeps its check-ins, the venue keeps its branch, and a replayed revocation wipes nothing"
    )
    func aSupersededRevocationNeverWipes() throws {
        let (lab, _) = try OrganizerDevicesEndToEndTests.venue(withFourth: false)
        let (k1, k2, k3) = (lab.k1, lab.k2, lab.k3)
        // k1 stops: k2 (side A) and k3 (side B) are cut apart.
        try k1.stop()
        // Side A, first: k2 checks in two people and the organizer locks there (the earlier stamp).
        for attendee in ["p4@example.com", "p5@example.com"] {
            #expect(try k2.muster(["checkin", attendee]).status == 0)
        }
        let lock = try k2.muster(["lock", "Expo", "--status", "Side A", "--organizer-key", k1.organizerKey])
        #expect(lock.status == 0, "lock: \(lock.stderr)")
        // Side B, later: the same organizer key revokes k2 on k3.
        // A second laptop with its own copy of the key (one key file refuses to sign on two branches).
        let copyB = try OrganizerDevicesEndToEndTests.secondLaptop(of: k1)
        let revoked = try k3.muster(["revoke", "k2", "--organizer-key", copyB])
        #expect(revoked.status == 0, "revoke: \(revoked.stderr)")
        let organizer = try JoinedVenue(path: k3.kioskVenuePath).organizer
        let losing = try #require(
            try Self.replica(k3).deltas(of: organizer).last,
            "the revocation k3 signed"
        )
        guard case .revoke? = try? losing.decode().body else {
            Issue.record("k3's newest organizer delta is its revocation")
            return
        }

        // Healed: one state, side A's; k2 never stopped and its check-ins are everywhere.
        try k1.start()
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 30)
        let everyone: Set = ["p1@example.com", "p2@example.com", "p3@example.com", "p4@example.com", "p5@example.com"]
        for kiosk in lab.all {
            #expect(try Self.checkedIn(kiosk) == everyone, "\(kiosk.directory.lastPathComponent)")
            #expect(try kiosk.status()["checkInStatus"] as? String == "Side A")
        }
        #expect(k2.daemon?.isRunning == true)
        for name in ["STOPPED", "REVOKED"] { #expect(!Self.file(k2, name)) }

        // The superseded revocation, replayed to k2 as the first message by anyone holding the
        // network key (a throwaway kiosk key): k2 keeps serving.
        let venue = try JoinedVenue(path: k2.kioskVenuePath)
        let port = try #require(Int(k2.listen.split(separator: ":").last ?? ""))
        let replay = try RawPeer(port: port, networkKey: venue.networkKey, keyPair: try SigningKeyPair.generate())
        try replay.send(.revoked(losing))
        _ = replay.receiveUntilClosed()
        #expect(try k2.muster(["checkin", "p6@example.com"]).status == 0, "the honest control after the replay")
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 20)
        #expect(k2.daemon?.isRunning == true)
        for name in ["STOPPED", "REVOKED"] { #expect(!Self.file(k2, name)) }
        for kiosk in lab.all { #expect(try Self.checkedIn(kiosk) == everyone.union(["p6@example.com"])) }
        #expect(!k2.daemonLog().contains("wiped"))
        for kiosk in lab.all { try kiosk.stop() }
    }
}

extension RevocationEndToEndTests {
    @Test(
        "a kiosk refused for a revocation on the losing branch of an organizer fork hands over the winning version and is admitted"
    )
    func theRevokedKioskAppealsWithTheWinningBranch() throws {
        let (lab, _) = try OrganizerDevicesEndToEndTests.venue(withFourth: false)
        let (k1, k2, k3) = (lab.k1, lab.k2, lab.k3)
        try k1.stop()
        #expect(try k2.muster(["checkin", "p4@example.com"]).status == 0)
        let lock = try k2.muster(["lock", "Expo", "--status", "Side A", "--organizer-key", k1.organizerKey])
        #expect(lock.status == 0, "lock: \(lock.stderr)")
        let copyB = try OrganizerDevicesEndToEndTests.secondLaptop(of: k1)
        let revoked = try k3.muster(["revoke", "k2", "--organizer-key", copyB])
        #expect(revoked.status == 0, "revoke: \(revoked.stderr)")

        // k1 hears only side B: it holds k2 revoked.
        try k2.stop()
        try k1.start()
        try waitUntil("k1 holds side B's revocation of k2", timeout: 30) {
            try Self.replica(k1).roster().first { $0.name == "k2" }?.revokedWatermark != nil
        }
        try k3.stop()

        // k2 comes back and dials k1, which refuses it as revoked: k2 answers with the organizer's
        // version of that seq (its lock, stamped first), k1 keeps it, and admits k2 at the next dial.
        try k2.start()
        try SyncEndToEndTests.waitForEqualDigests([k1, k2], timeout: 30)
        #expect(k2.daemonLog().contains("handing over what took it back"))
        #expect(k1.daemonLog().contains("a revoked peer handed over the organizer's deltas"))
        #expect(try Self.replica(k1).roster().first { $0.name == "k2" }?.revokedWatermark == nil)
        for kiosk in [k1, k2] {
            #expect(try Self.checkedIn(kiosk).contains("p4@example.com"))
            #expect(try kiosk.status()["checkInStatus"] as? String == "Side A")
        }
        #expect(k2.daemon?.isRunning == true)
        for name in ["STOPPED", "REVOKED"] { #expect(!Self.file(k2, name)) }
        // k3, side B, comes back and takes side A's branch too.
        try k3.start()
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 30)
        for kiosk in lab.all { try kiosk.stop() }
    }
}
