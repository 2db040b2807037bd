import Foundation
import MusterControl
import MusterCore
import MusterDaemon
import MusterStore
import Testing

@testable import MusterClient

/// Runs the kiosk screen loop against a live in-process daemon: typed lines in, printed text out.
private func runKiosk(configPath: String, lines: [String]) async throws -> String {
    try await ClientTestSupport.blocking {
        let client = try ClientContext(configPath: configPath, environment: [:])
        var input = lines
        var output = ""
        let session = KioskSession(
            client: client,
            readLine: { input.isEmpty ? nil : input.removeFirst() },
            write: { output += $0 }
        )
        session.run()
        return output
    }
}

@Suite("KioskSession (live daemon)")
struct KioskSessionLiveTests {
    @Test func waitingKioskRefusesEverything() async throws {
        let daemon = try LiveDaemon(name: "Hall A")
        try await daemon.start()
        let output = try await runKiosk(configPath: daemon.configPath, lines: ["ada@example.com", "new"])
        #expect(output.contains("== Muster · kiosk Hall A =="))
        #expect(output.components(separatedBy: "waiting for the organizer").count - 1 >= 3)
        #expect(try daemon.replica.status().checkedIn == 0)
    }

    @Test func checkInNoteRepeatAndWalkIn() async throws {
        let daemon = try LiveDaemon(name: "Hall A", location: "North door")
        try await daemon.start()
        try await daemon.importAndLock()
        let output = try await runKiosk(
            configPath: daemon.configPath,
            lines: [
                "ADA@example.com", "y", "See you at the keynote",
                "ada@example.com",
                "nobody@example.com",
                "mus-0002", "n",
                "new", "Linus", "Walker", "linus@walkin.example", "Kernel Co", "",
            ]
        )
        #expect(output.contains("== DevConf 2026 · check-in · kiosk Hall A =="))
        #expect(output.contains("Found: Ada Lovelace (Analytical)"))
        #expect(output.contains("Welcome, Ada! You are checked in at "))
        #expect(output.contains("Thank you, your note is in the guestbook."))
        #expect(output.contains("Ada Lovelace (Analytical) is already checked in at "))
        #expect(output.contains("at kiosk Hall A (North door)."))
        #expect(output.contains("Sorry, no ticket or email matches."))
        #expect(output.contains("Found: Grace Hopper (Navy)"))
        #expect(output.contains("Not checked in."))
        #expect(output.contains("Welcome, Linus! You are checked in at "))
        #expect(output.contains("Your ticket code is W-"))
        #expect(output.hasSuffix("\n"), "end of input ends the screen cleanly")

        let status = try daemon.replica.status()
        #expect(status.checkedIn == 2)
        #expect(status.walkIns == 1)
        let log = try daemon.replica.presenceLog(campaignID: nil)
        #expect(log.map(\.presence.kind) == [.checkIn, .registration])
        #expect(log.first?.note == "See you at the keynote")
        #expect(log.first?.presence.kioskName == "Hall A")
        #expect(log.first?.presence.memberStatus == "Attended")
        let grace = try daemon.replica.view {
            try $0.lookup(campaignID: "c0ffee0000000001", query: "grace@example.com")
        }
        #expect(grace?.isCheckedIn == false, "declining the confirmation checks nobody in")
    }

    @Test func lockArrivingWhileTheScreenRunsTakesEffect() async throws {
        let daemon = try LiveDaemon(name: "Hall A")
        try await daemon.start()
        try await daemon.importAndLock(lock: false)
        let configPath = daemon.configPath
        let organizer = daemon.organizer
        // The lock is submitted between two typed lines, as the organizer would from another machine.
        let output = try await ClientTestSupport.blocking {
            let client = try ClientContext(configPath: configPath, environment: [:])
            var input = ["ada@example.com", "LOCK", "ada@example.com", "y"]
            var output = ""
            let session = KioskSession(
                client: client,
                readLine: {
                    guard !input.isEmpty else { return nil }
                    let line = input.removeFirst()
                    guard line == "LOCK" else { return line }
                    let organizerClient = try! ClientContext(configPath: configPath, environment: [:])
                    _ = try! OrganizerSubmitter(client: organizerClient, keyPair: organizer).submit([
                        .lock(LockPayload(version: 1, campaignID: "c0ffee0000000001", checkInStatus: "Attended"))
                    ])
                    return ""
                },
                write: { output += $0 }
            )
            session.run()
            return output
        }
        let waiting = try #require(output.range(of: "waiting for the organizer"))
        let banner = try #require(output.range(of: "== DevConf 2026 · check-in · kiosk Hall A =="))
        #expect(waiting.lowerBound < banner.lowerBound)
        #expect(output.contains("Welcome, Ada!"))
        #expect(try daemon.replica.status().checkedIn == 1)
    }

    @Test func daemonGoneIsReportedOnScreen() async throws {
        let daemon = try LiveDaemon(name: "Hall A")
        try await daemon.start()
        try await daemon.importAndLock()
        let task = try #require(daemon.task)
        task.cancel()
        #expect(await ClientTestSupport.finishes(task, within: 10))
        let output = try await runKiosk(configPath: daemon.configPath, lines: ["ada@example.com", "y"])
        #expect(output.contains("Found: Ada Lovelace (Analytical)"), "lookups read the replica directly")
        #expect(output.contains("Sorry, something went wrong: cannot reach musterd"))
        #expect(output.contains("Please see the staff desk."))
        #expect(!output.contains("Welcome"))
    }
}
