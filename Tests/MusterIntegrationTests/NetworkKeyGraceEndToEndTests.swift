import Foundation
import Testing

/// A kiosk that was off while a revocation rotated the network key (issue 13: "an old network-key
/// generation is accepted only for a grace period, and only to deliver the new key").
@Suite("Retired network keys", .serialized)
struct NetworkKeyGraceEndToEndTests {
    /// k1 with k3 dialing it and k4 joined through k1 (so every roster knows k4); k3 and k4 stopped,
    /// then k4 revoked on k1: the network key is at generation 1 on k1, and k3 holds only generation 0.
    static func rotatedWhileK3WasOff() throws -> (k1: KioskHarness, k3: KioskHarness) {
        let ports = try (0..<3).map { _ in try freeLoopbackPort() }
        let address = ports.map { "127.0.0.1:\($0)" }
        let k1 = try KioskHarness(name: "k1", listen: address[0])
        let k3 = try KioskHarness(name: "k3", venueOf: k1, listen: address[1], staticPeers: [address[0]])
        let k4 = try KioskHarness(name: "k4", venueOf: k1, listen: address[2], staticPeers: [address[0]])
        for kiosk in [k1, k3, k4] { try kiosk.start() }
        try waitUntil("k1 is in session with k3 and k4", timeout: 20) {
            (try k1.status()["peers"] as? [String])?.count == 2
        }
        try k3.stop()
        try k4.stop()
        let revoked = try k1.muster(["revoke", "k4", "--organizer-key", k1.organizerKey])
        #expect(revoked.status == 0, "revoke: \(revoked.stderr)")
        return (k1, k3)
    }

    @Test("within the grace period the old key gets only the new key handed over, then the kiosk syncs under it")
    func oldKeyWithinGrace() throws {
        let (k1, k3) = try Self.rotatedWhileK3WasOff()
        try k3.start()
        try waitUntil("k3 is in session with k1 again", timeout: 30) {
            (try k3.status()["peers"] as? [String])?.count == 1
        }
        try waitUntil("k3 holds the organizer's revocation", timeout: 20) { try Self.organizerHead(k3) == 1 }
        #expect(k1.daemonLog().contains("a peer on a retired network key: handing over the newer keys"))
        #expect(k3.daemonLog().contains("newer network keys handed over"))
        #expect(k3.daemonLog().contains("venue network key rotated"))
        #expect(try k3.status()["keyGeneration"] as? Int == 1)
        #expect(try k1.status()["keyGeneration"] as? Int == 1)
        for kiosk in [k1, k3] { try kiosk.stop() }
    }

    @Test("after the grace period the old key is refused: the kiosk that slept through it gets nothing")
    func oldKeyAfterGrace() throws {
        let (k1, k3) = try Self.rotatedWhileK3WasOff()
        // k1's clock 49 hours on: the revocation that retired generation 0 is older than its grace.
        try k1.stop()
        try k1.start(["--clock-offset-ms=\(49 * 3_600_000)"])
        try k3.start()
        try waitUntil("k3 has failed three handshakes with k1", timeout: 30) {
            k3.daemonLog().components(separatedBy: "connection ended").count > 3
        }
        #expect((try k3.status()["peers"] as? [String])?.isEmpty ?? false)
        #expect(try k3.status()["keyGeneration"] as? Int == 0)
        #expect(!k1.daemonLog().contains("handing over the newer keys"))
        #expect(!k3.daemonLog().contains("session established"))
        // k3 never got the organizer's revocation (the only delta it lacks).
        #expect(try Self.organizerHead(k3) == 0)
        #expect(try Self.organizerHead(k1) == 1)
        for kiosk in [k1, k3] { try kiosk.stop() }
    }

    /// The organizer's head on `kiosk` (0: nothing of the organizer's).
    static func organizerHead(_ kiosk: KioskHarness) throws -> Int {
        let authors = try kiosk.status()["authors"] as? [[String: Any]] ?? []
        return authors.first { $0["role"] as? String == "organizer" }?["headSeq"] as? Int ?? 0
    }
}

extension NetworkKeyGraceEndToEndTests {
    @Test(
        "a kiosk enrolled before a rotation and first started after it (no revocation sealed the key to it) gets the key handed over and syncs"
    )
    func enrolledBeforeRotationStartedAfter() throws {
        let ports = try (0..<3).map { _ in try freeLoopbackPort() }
        let address = ports.map { "127.0.0.1:\($0)" }
        let k1 = try KioskHarness(name: "k1", listen: address[0])
        let k4 = try KioskHarness(name: "k4", venueOf: k1, listen: address[2], staticPeers: [address[0]])
        try k1.start()
        try k4.start()
        try waitUntil("k1 is in session with k4", timeout: 20) { (try k1.status()["peers"] as? [String])?.count == 1 }
        try k4.stop()
        // k3 is enrolled now but never started: no replica of the venue holds its certificate yet, so the
        // revocation below seals the rotated key to k1 alone.
        let k3 = try KioskHarness(name: "k3", venueOf: k1, listen: address[1], staticPeers: [address[0]])
        let revoked = try k1.muster(["revoke", "k4", "--organizer-key", k1.organizerKey])
        #expect(revoked.status == 0, "revoke: \(revoked.stderr)")
        #expect(revoked.stdout.contains("for 1 kiosk(s)"), "\(revoked.stdout)")
        try k3.start()
        try waitUntil("k3 holds the organizer's revocation under the new key", timeout: 30) {
            try Self.organizerHead(k3) == 1 && (try k3.status()["keyGeneration"] as? Int) == 1
        }
        #expect(k3.daemonLog().contains("a peer handed over the current network key"))
        // The honest control: a check-in at k3 reaches k1 over a full session.
        try waitUntil("k3 is in a full session with k1", timeout: 20) {
            (try k1.status()["peers"] as? [String])?.count == 1
        }
        try SyncEndToEndTests.waitForEqualDigests([k1, k3], timeout: 20)
        for kiosk in [k1, k3] { try kiosk.stop() }
    }
}
