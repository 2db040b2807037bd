import Foundation
import Testing

/// Sessions and check-in spots (issue 36) on three real kiosks on loopback, with the real clock: k1 and
/// k2 stand in the Lab, k3 in Hall A and hears only k1. A scheduled session opens and closes on the Lab
/// kiosks at its times while Hall A is cut off (k3 stopped); a registered attendee enters on one Lab
/// kiosk and leaves on the other, an unregistered one is refused; a spot's code works on the other Lab
/// kiosk and the host's watch shows the join within a second; after the heal Hall A exports the same
/// attendance and refuses the spot's code (wrong zone), and a spot past its time refuses it (closed).
@Suite("Sessions and check-in spots", .serialized)
struct SessionsEndToEndTests {
    static func lab() throws -> SyncEndToEndTests.Lab {
        let p1 = try freeLoopbackPort()
        let p2 = try freeLoopbackPort()
        let p3 = try freeLoopbackPort()
        let k1 = try KioskHarness(
            name: "k1",
            location: "Lab",
            listen: "127.0.0.1:\(p1)",
            staticPeers: ["127.0.0.1:\(p2)", "127.0.0.1:\(p3)"]
        )
        let k2 = try KioskHarness(
            name: "k2",
            location: "Lab",
            venueOf: k1,
            listen: "127.0.0.1:\(p2)",
            staticPeers: ["127.0.0.1:\(p1)"]
        )
        let k3 = try KioskHarness(
            name: "k3",
            location: "Hall A",
            venueOf: k1,
            listen: "127.0.0.1:\(p3)",
            staticPeers: ["127.0.0.1:\(p1)"]
        )
        return SyncEndToEndTests.Lab(k1: k1, k2: k2, k3: k3)
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    @Test("a session opens and closes at its times, a spot's code works in its zone only, Hall A exports the same")
    func sessionAndSpot() throws {
        let lab = try Self.lab()
        for kiosk in lab.all { try kiosk.start() }
        var watcher: Process?
        defer {
            // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
            if let watcher, watcher.isRunning {
                kill(watcher.processIdentifier, SIGKILL)
                watcher.waitUntilExit()
            }
            for kiosk in lab.all { try? kiosk.stop() }
        }
        try waitUntil("k1 is in session with k2 and k3", timeout: 20) {
            (try lab.k1.status()["peers"] as? [String])?.count == 2
        }
        try lab.importAndLock()
        let key = lab.k1.organizerKey
        let start = Date().addingTimeInterval(6)
        let end = start.addingTimeInterval(15)
        let added = try lab.k1.muster([
            "session", "add", "Swift on Linux", "--zone", "Lab", "--from", Self.iso(start), "--until", Self.iso(end),
            "--registered-only", "--organizer-key", key,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let registrations = try lab.k1.write("registrations.csv", "session,email\nSwift on Linux,p1@example.com\n")
        #expect(try lab.k1.muster(["session", "register", registrations, "--organizer-key", key]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all)
        let early = try lab.k1.muster(["checkin", "p1@example.com", "--json"])
        #expect(Self.json(early.stdout)["reason"] as? String == "no_session_now", "\(early.stdout)")

        // Hall A is cut off for the whole session.
        try lab.k3.stop()
        var entered: [String: Any] = [:]
        try waitUntil("the session opens on k1", timeout: 15) {
            entered = Self.json(try lab.k1.muster(["attend", "p1@example.com", "--json"]).stdout)
            return entered["outcome"] as? String == "attended"
        }
        #expect(entered["direction"] as? String == "entered")
        #expect(entered["session"] as? String == "Swift on Linux")
        let stranger = try lab.k2.muster(["attend", "p2@example.com", "--json"])
        #expect(Self.json(stranger.stdout)["reason"] as? String == "not_registered", "\(stranger.stdout)")
        try SyncEndToEndTests.waitForEqualDigests([lab.k1, lab.k2])
        let left = Self.json(try lab.k2.muster(["checkin", "p1@example.com", "--json"]).stdout)
        #expect(left["direction"] as? String == "left", "a second scan, on the other Lab kiosk: \(left)")

        // A spot on k1, the host watching; its code works on k2 and the join shows within a second.
        let spot = Self.json(
            try lab.k1.muster(["spot", "open", "Lab meeting", "--for", "2m", "--json"]).stdout
        )
        let code = spot["spotCode"] as? String ?? ""
        #expect(code.count == 6, "\(spot)")
        let watchOutput = lab.k1.directory.appendingPathComponent("watch.jsonl")
        FileManager.default.createFile(atPath: watchOutput.path, contents: nil)
        let process = Process()
        process.executableURL = lab.k1.binaries.appendingPathComponent("muster")
        process.arguments = ["session", "watch", "Lab meeting", "--json"]
        process.environment = lab.k1.runner.environment()
        process.standardOutput = try FileHandle(forWritingTo: watchOutput)
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        watcher = process
        try SyncEndToEndTests.waitForEqualDigests([lab.k1, lab.k2])
        let joined = try lab.k2.muster(["attend", "p5@example.com", "--code", code, "--json"])
        let answeredAt = Date()
        #expect(Self.json(joined.stdout)["outcome"] as? String == "attended", "\(joined.stdout)")
        try waitUntil("the host's watch shows the join", timeout: 10) {
            (try? String(contentsOf: watchOutput, encoding: .utf8))?.contains("p5@example.com") == true
        }
        #expect(Date().timeIntervalSince(answeredAt) < 1.0, "shown within a second of the answer")
        let wrong = code == "000000" ? "000001" : "000000"
        let refused = try lab.k2.muster(["attend", "p6@example.com", "--code", wrong, "--json"])
        #expect(Self.json(refused.stdout)["reason"] as? String == "wrong_code")
        let short = Self.json(try lab.k2.muster(["spot", "open", "Quick poll", "--for", "1s", "--json"]).stdout)
        let shortCode = short["spotCode"] as? String ?? ""
        #expect(shortCode.prefix(2) != code.prefix(2), "two kiosks draw from their own hundreds")
        try waitUntil("the short spot closes", timeout: 10) {
            Self.json(try lab.k2.muster(["attend", "p7@example.com", "--code", shortCode, "--json"]).stdout)["reason"]
                as? String == "spot_closed"
        }
        try waitUntil("the session closes at its end", timeout: 20) {
            Self.json(try lab.k1.muster(["checkin", "p1@example.com", "--json"]).stdout)["reason"] as? String
                == "no_session_now"
        }

        // Healed: Hall A holds what the Lab did and exports the same attendance.
        try lab.k3.start()
        try SyncEndToEndTests.waitForEqualDigests(lab.all)
        let wrongZone = try lab.k3.muster(["attend", "p8@example.com", "--code", code, "--json"])
        #expect(Self.json(wrongZone.stdout)["reason"] as? String == "wrong_zone", "\(wrongZone.stdout)")
        var exports: [String] = []
        for kiosk in lab.all {
            let export = try kiosk.muster(["export", "sessions"])
            #expect(export.status == 0, "\(export.stderr)")
            exports.append(export.stdout)
        }
        #expect(Set(exports).count == 1, "every kiosk exports the same:\n\(exports.joined(separator: "\n"))")
        let rows = exports[0].split(separator: "\r\n").map(String.init)
        #expect(rows.first == "Session,Zone,Start,End,Attendee,Email,In,Out,Minutes,Status")
        let p1 = rows.first { $0.hasPrefix("Swift on Linux,Lab,") && $0.contains(",p1@example.com,") } ?? ""
        let fields = p1.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(fields.count == 10, "\(rows)")
        if fields.count == 10 {
            let formatter = ISO8601DateFormatter()
            let entry = formatter.date(from: fields[6])
            let exit = formatter.date(from: fields[7])
            #expect(entry != nil && exit != nil && exit! > entry!, "\(p1)")
            if let entry, let exit {
                #expect(fields[8] == String(Int(exit.timeIntervalSince(entry)) / 60), "minutes from In to Out")
            }
            #expect(fields[9] == "present")
        }
        #expect(rows.contains { $0.hasPrefix("Lab meeting,Lab,") && $0.contains(",p5@example.com,") })
        let audit = try lab.k3.muster(["export", "audit"]).stdout
        #expect(audit.contains(",p1@example.com,entered,") && audit.contains(",p1@example.com,left,"), "\(audit)")
    }
}
