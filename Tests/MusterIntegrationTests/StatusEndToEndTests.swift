import Foundation
import Testing

/// `muster status` and `muster doctor` against real daemons: each peer with its address, last
/// seen, lag and digest agreement.
@Suite("Status and doctor")
struct StatusEndToEndTests {
    @Test("status lists each peer in sync with an equal digest; doctor finds nothing to fix")
    func peersInStatusAndDoctor() throws {
        let (k1, k2, _) = try KioskHarness.dialingPair(locations: ("North door", "South door"))
        try k1.start()
        try k2.start()
        #expect(try k2.muster(["checkin", "nobody@example.com"]).status != 0, "no lock yet")
        try waitUntil("k1 sees k2 in sync with an equal digest", timeout: 30) {
            guard let peers = try k1.status()["peerDetails"] as? [[String: Any]], let k2Peer = peers.first else {
                return false
            }
            return k2Peer["name"] as? String == "k2" && k2Peer["behind"] as? Int == 0 && k2Peer["ahead"] as? Int == 0
                && k2Peer["digestMatches"] as? Bool == true
        }
        let text = try k1.muster(["status"]).stdout
        #expect(text.contains("Peers:      1 in session"))
        #expect(text.contains("k2 (South door)  127.0.0.1:"))
        #expect(text.contains("in sync, digest equal"))
        // The config option before the subcommand, as git and systemctl take theirs; it outranks MUSTER_CONFIG.
        let leading = try k1.muster(
            ["--config", k1.configPath, "status"],
            environment: ["MUSTER_CONFIG": "/nonexistent/musterd.toml"]
        )
        #expect(leading.status == 0, "\(leading.stderr)")
        #expect(leading.stdout.contains("k2 (South door)  127.0.0.1:"))

        let doctor = try k1.muster(["doctor"])
        #expect(doctor.stdout.contains("ok    enrollment: enrolled in 'Test Venue' as 'k1'"))
        #expect(doctor.stdout.contains("ok    musterd: running as 'k1'"))
        #expect(doctor.stdout.contains("ok    avahi-daemon: discovery is off"))
        #expect(doctor.stdout.contains("peers: 1 in session, all in sync"))
        #expect(doctor.stdout.contains("WARN  campaign lock"))

        try k2.stop()
        try waitUntil("k2 leaves k1's status", timeout: 15) {
            (try k1.status()["peerDetails"] as? [Any])?.isEmpty == true
        }
        #expect(try k1.muster(["doctor"]).stdout.contains("WARN  peers: no other kiosk in session"))
    }
}
