import Foundation
import MusterTestSupport
import Testing

/// Rows 7 and 8 of SECURITY.md's attack table, in the lab (real daemons, each in its own network
/// namespace, found through avahi-daemon): both need a kiosk cut off from the others.
extension LabEndToEndTests {
    /// Imports the sample list as `campaign` on k1 and locks every kiosk to it.
    static func importAndLock(_ lab: Lab, campaign: String) throws {
        let sample = lab.root.appendingPathComponent("scripts/sample-attendees.csv").path
        #expect(
            try lab.exec(1, ["muster", "import", sample, "--campaign", campaign, "--organizer-key", lab.organizerKey])
                .status == 0
        )
        #expect(try lab.exec(1, ["muster", "lock", campaign, "--organizer-key", lab.organizerKey]).status == 0)
    }

    /// A lab of three kiosks in session, the sample list imported as `campaign` and locked, and k3
    /// (the one the tests cut off) locked to it.
    static func lockedLab(campaign: String) throws -> Lab {
        let lab = try Lab(kiosks: 3)
        try waitForSessions(lab)
        try importAndLock(lab, campaign: campaign)
        try waitUntil("k3 is locked to \(campaign)", timeout: 30) {
            try lab.status(3)["campaign"] as? String == campaign
        }
        return lab
    }

    static func waitForSessions(_ lab: Lab, kiosks: ClosedRange<Int> = 1...3) throws {
        try waitUntil("every kiosk is in session with the others", timeout: 30) {
            try kiosks.allSatisfy { (try lab.status($0)["peers"] as? [String])?.count == kiosks.count - 1 }
        }
    }

    @Test(
        "8. a lock pushed while k3 is cut off reaches k3 and its running kiosk screen after heal",
        .enabled(if: isRoot())
    )
    func lockWhileCutOff() throws {
        let lab = try Self.lockedLab(campaign: "Day 1")

        // The kiosk screen on k3, reading a FIFO that the test holds open (nothing typed) and
        // writing to a file, so no pipe of this process is shared with anything else.
        let fifo = lab.root.appendingPathComponent(".lab/k3/screen.in").path
        let screenOut = lab.root.appendingPathComponent(".lab/k3/screen.out").path
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        let input = open(fifo, O_RDWR)
        #expect(input >= 0)
        // Started detached (setsid, reparented to init): a long-running child of this process
        // would keep Foundation from noticing the exits of the lab commands run meanwhile.
        _ = try Command(
            "/bin/bash",
            ["-c", "setsid \"$0\" exec 3 muster kiosk <\"$1\" >\"$2\" 2>/dev/null &", lab.script, fifo, screenOut],
            environment: lab.environment,
            output: .discard
        ).run()
        // Closing the FIFO is the end of input: the screen exits by itself.
        defer { close(input) }
        func shownText() -> String { (try? String(contentsOfFile: screenOut, encoding: .utf8)) ?? "" }
        try waitUntil("k3's screen shows Day 1", timeout: 20) { shownText().contains("== Day 1 · check-in") }

        #expect(try lab.run(["cut", "3"]).status == 0)
        try Self.importAndLock(lab, campaign: "Day 2")
        try waitUntil("k2 is locked to Day 2", timeout: 30) { try lab.status(2)["campaign"] as? String == "Day 2" }
        #expect(try lab.status(3)["campaign"] as? String == "Day 1", "k3 is cut off")
        #expect(!shownText().contains("Day 2"))

        #expect(try lab.run(["heal", "3"]).status == 0)
        try waitUntil("k3 obeys the newest lock", timeout: 60) { try lab.status(3)["campaign"] as? String == "Day 2" }
        try waitUntil("k3's screen switched by itself", timeout: 10) { shownText().contains("== Day 2 · check-in") }
        // Nothing typed at the screen changes the campaign: a line of text is just a lookup.
        _ = "lock Day 1\n".withCString { write(input, $0, strlen($0)) }
        #expect(try lab.status(3)["campaign"] as? String == "Day 2")
    }

    @Test(
        "7. a revoked kiosk: its later check-ins are refused, it is refused, it stops and keeps the one it alone holds; earlier ones stay",
        .enabled(if: isRoot())
    )
    func revocation() throws {
        let lab = try Self.lockedLab(campaign: "Lab")
        #expect(try lab.exec(3, ["muster", "checkin", "MUS-0004"]).status == 0)
        try waitUntil("k1 and k2 have k3's first check-in", timeout: 30) {
            try [1, 2].allSatisfy { try lab.status($0)["checkedIn"] as? Int == 1 }
        }

        // Stolen: k3 goes off the network and keeps checking people in.
        #expect(try lab.run(["cut", "3"]).status == 0)
        #expect(try lab.exec(3, ["muster", "checkin", "MUS-0005"]).status == 0)
        let revoked = try lab.exec(1, ["muster", "revoke", "k3", "--organizer-key", lab.organizerKey])
        #expect(revoked.status == 0, "revoke: \(revoked.stderr)")
        #expect(revoked.stdout.contains("Network key rotated to generation 1 for 2 kiosk(s)"))
        let organizerVenue = try String(
            contentsOfFile: lab.root.appendingPathComponent(".lab/venue/venue.toml").path,
            encoding: .utf8
        )
        #expect(organizerVenue.contains("key_generation = 1"))

        // Healed, k3 learns it is revoked. Its check-in of MUS-0005 was acknowledged and exists on no
        // other kiosk (it is past the watermark), so k3 stops and keeps every file (RevocationVerdict):
        // the organizer exports it from the box before wiping the box by hand.
        #expect(try lab.run(["heal", "3"]).status == 0)
        let state = lab.root.appendingPathComponent(".lab/k3/state")
        try waitUntil("k3 learned it is revoked and stopped", timeout: 60) {
            FileManager.default.fileExists(atPath: state.appendingPathComponent("STOPPED").path)
        }
        try waitUntil("k3's musterd has stopped", timeout: 20) { try lab.status(3)["daemonRunning"] as? Bool == false }
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("REVOKED").path))
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("replica.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("kiosk.key").path))
        let marker = try String(contentsOfFile: state.appendingPathComponent("STOPPED").path, encoding: .utf8)
        #expect(marker.contains("no other kiosk is known to hold"), "\(marker)")

        // k1 and k2 keep the check-in from before the watermark and never take the later one; their
        // sessions with each other run on the rotated key.
        for kiosk in [1, 2] {
            let status = try lab.status(kiosk)
            #expect(status["checkedIn"] as? Int == 1)
            #expect((status["peers"] as? [String])?.count == 1)
        }
        for kiosk in [1, 2] {
            #expect(try lab.exec(kiosk, ["muster", "lookup", "MUS-0005"]).stdout.contains("  not checked in"))
            #expect(try lab.exec(kiosk, ["muster", "lookup", "MUS-0004"]).stdout.contains("at kiosk k3"))
        }
        func log(_ kiosk: Int) throws -> String {
            try String(
                contentsOfFile: lab.root.appendingPathComponent(".lab/k\(kiosk)/musterd.log").path,
                encoding: .utf8
            )
        }
        let (k1Log, k2Log, k3Log) = (try log(1), try log(2), try log(3))
        #expect(k1Log.contains("venue network key rotated") && k2Log.contains("venue network key rotated"))
        // k3 learned it from k1 or k2: either one refused k3's new session after the heal, or the
        // revocation sent down a session the cut had left dangling arrived once the link was back.
        let told = ["refused a revoked kiosk", "closing the session of a revoked kiosk"]
        #expect(told.contains { k1Log.contains($0) || k2Log.contains($0) })
        #expect(k3Log.contains("this kiosk was revoked by the organizer"))

        // It stays down: a restart refuses with the reason.
        #expect(try lab.run(["start", "3"]).status != 0)
        let again = try String(
            contentsOfFile: lab.root.appendingPathComponent(".lab/k3/musterd.log").path,
            encoding: .utf8
        )
        #expect(again.contains("stopped after a revocation and kept all its data"))
    }
}
