import Foundation
import Testing

/// Three real kiosks in the lab (scripts/lab): each in its own network namespace with its own
/// D-Bus and avahi-daemon, finding each other with no static peers. All traffic stays inside the
/// namespaces the lab created; the lab is torn down even when a test fails.
@Suite("Lab: discovery and sync through avahi-daemon", .serialized)
struct LabEndToEndTests {
    final class Lab {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var script: String { root.appendingPathComponent("scripts/lab").path }

        init(kiosks: Int) throws {
            let result = try run(["up", "\(kiosks)"])
            guard result.status == 0 else {
                _ = try? run(["down"])
                throw KioskHarness.HarnessError(description: "lab up failed: \(result.stdout)\(result.stderr)")
            }
        }

        deinit { _ = try? run(["down"]) }

        @discardableResult
        func run(_ arguments: [String], input: String = "") throws -> KioskHarness.Result {
            try runProcess(
                URL(fileURLWithPath: "/bin/bash"),
                [script] + arguments,
                environment: environment,
                input: input.isEmpty ? nil : input
            ).result
        }

        /// What `scripts/lab` runs with: UTC, and the binaries this test run built.
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["TZ"] = "UTC"
            if let binaries = try? KioskHarness.findBinaries() { environment["MUSTER_BIN"] = binaries.path }
            return environment
        }

        func exec(_ kiosk: Int, _ command: [String]) throws -> KioskHarness.Result {
            try run(["exec", "\(kiosk)"] + command)
        }

        func status(_ kiosk: Int) throws -> [String: Any] { try labStatus(of: kiosk) { try exec($0, $1) } }

        var organizerKey: String { root.appendingPathComponent(".lab/venue/organizer.key").path }

        /// Resolved `_muster._tcp` services that kiosk `i`'s avahi-daemon knows, as their TXT fingerprints.
        func browse(_ kiosk: Int) throws -> Set<String> {
            let output = try exec(kiosk, ["avahi-browse", "-rpt", "_muster._tcp"]).stdout
            var fingerprints = Set<String>()
            for line in output.split(separator: "\n") where line.hasPrefix("=") {
                if let range = line.range(of: "\"fp=") {
                    fingerprints.insert(String(line[range.upperBound...].prefix { $0 != "\"" }))
                }
            }
            return fingerprints
        }
    }

    static func isRoot() -> Bool { getuid() == 0 }

    @Test("three kiosks find each other, converge, and survive an avahi-daemon restart", .enabled(if: isRoot()))
    func discoveryAndSync() throws {
        let lab = try Lab(kiosks: 3)
        let fingerprints = try (1...3).map { kiosk -> String in
            let key = try #require(try lab.status(kiosk)["kioskKey"] as? String)
            return key
        }
        #expect(Set(fingerprints).count == 3)

        // 1. Each kiosk's avahi-daemon shows the other two (resolved, with their TXT records).
        try waitUntil("k1 browses k2 and k3", timeout: 30) { try lab.browse(1).count >= 3 }
        #expect(try lab.browse(1).count == 3, "k1's own service plus k2 and k3")

        // Sessions form from discovery alone (no static peers).
        try Self.waitForSessions(lab)

        // 2. Import and lock on k1 reach k2 and k3; a check-in on k2 reaches k1 and k3.
        try Self.importAndLock(lab, campaign: "Lab")
        try waitUntil("k2 and k3 have the list and the lock", timeout: 30) {
            try [2, 3].allSatisfy {
                let status = try lab.status($0)
                return status["attendees"] as? Int == 25 && status["campaign"] as? String == "Lab"
            }
        }
        let start = Date()
        #expect(try lab.exec(2, ["muster", "checkin", "MUS-0001"]).status == 0)
        try waitUntil("k1 and k3 see k2's check-in", timeout: 30) {
            try [1, 3].allSatisfy { try lab.status($0)["checkedIn"] as? Int == 1 }
        }
        print(
            "lab: check-in on k2 visible on k1 and k3 after \(Int(Date().timeIntervalSince(start) * 1000)) ms (polled through `scripts/lab exec`)"
        )

        // 6. avahi-daemon on k1 restarts: k1 keeps syncing, and is rediscovered.
        #expect(try lab.run(["avahi-restart", "1"]).status == 0)
        #expect(try lab.exec(3, ["muster", "checkin", "MUS-0002"]).status == 0)
        try waitUntil("k1 still receives check-ins", timeout: 30) { try lab.status(1)["checkedIn"] as? Int == 2 }
        try waitUntil("k2 sees k1's announcement again", timeout: 30) { try lab.browse(2).count == 3 }
        try waitUntil("all digests equal", timeout: 30) {
            Set(try (1...3).map { try lab.status($0)["digest"] as? String ?? "" }).count == 1
        }
    }

    @Test(
        "k3 cut off: both sides check in, the same attendee on k1 and k3; after heal all agree",
        .enabled(if: isRoot())
    )
    func partitionAndHeal() throws {
        let lab = try Self.lockedLab(campaign: "Lab")

        #expect(try lab.run(["cut", "3"]).status == 0)
        #expect(try lab.exec(1, ["muster", "checkin", "MUS-0001"]).status == 0)
        #expect(try lab.exec(2, ["muster", "checkin", "MUS-0002"]).status == 0)
        #expect(try lab.exec(3, ["muster", "checkin", "MUS-0003"]).status == 0)
        #expect(try lab.exec(3, ["muster", "checkin", "MUS-0001"]).status == 0, "k3 cannot know about k1's check-in")
        #expect(try lab.status(3)["checkedIn"] as? Int == 2)

        let healed = Date()
        #expect(try lab.run(["heal", "3"]).status == 0)
        try waitUntil("all digests equal after heal", timeout: 60) {
            Set(try (1...3).map { try lab.status($0)["digest"] as? String ?? "" }).count == 1
        }
        print("lab: digests equal \(Int(Date().timeIntervalSince(healed) * 1000)) ms after heal")
        for kiosk in 1...3 {
            #expect(try lab.status(kiosk)["checkedIn"] as? Int == 3)
            // The first check-in (at k1) is the one shown everywhere...
            let again = try lab.exec(kiosk, ["muster", "checkin", "MUS-0001"])
            #expect(again.status == 3)
            #expect(again.stdout.contains("at kiosk k1"), "k\(kiosk): \(again.stdout)")
            // ...and k3's later one is kept as a second check-in from the other kiosk.
            // CSV lines end in CRLF, one Character in Swift: split on any newline.
            let log = try lab.exec(kiosk, ["muster", "export", "log"]).stdout.split(whereSeparator: \.isNewline)
            let rows = log.filter { $0.contains("MUS-0001") && $0.contains(",check-in,") }
            #expect(
                rows.count == 2 && rows.contains { $0.contains(",k1,") } && rows.contains { $0.contains(",k3,") },
                "k\(kiosk) log: \(log)"
            )
        }
    }
}
