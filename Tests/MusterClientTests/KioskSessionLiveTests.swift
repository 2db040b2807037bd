import Foundation
import MusterControl
import MusterCore
import MusterDaemon
import MusterRules
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

@Suite("KioskSession (live daemon)")
struct KioskSessionLiveTests {
    @Test func waitingKioskRefusesEverything() async throws {
        let daemon = try await LiveDaemon.started()
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
        #expect(output.contains("Found: Ada L.\n"))
        #expect(output.contains("Checked in at "))
        #expect(output.contains("Welcome, Ada!"))
        #expect(output.contains("Thank you, your note is in the guestbook."))
        #expect(output.contains("Already checked in: Ada L., at "))
        #expect(output.contains("Not found: no ticket or email matches."))
        #expect(output.contains("Found: Grace H.\n"))
        #expect(output.contains("Not checked in."))
        #expect(output.contains("Welcome, Linus!"))
        #expect(output.contains("Scan this code at re-entry:"))
        #expect(output.contains("Your ticket code is W-"))
        // Nothing the screen may not show: no last names before confirmation, companies, kiosk or place.
        for hidden in ["Lovelace", "Analytical", "Hopper", "Navy", "North door"] {
            #expect(!output.contains(hidden), "\(hidden) reached the public screen")
        }
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
        let daemon = try await LiveDaemon.started()
        try await daemon.importAndLock(lock: false)
        let configPath = daemon.configPath
        let organizer = daemon.organizer
        // The lock is submitted between two typed lines, as the organizer would from another machine.
        let lines = ["ada@example.com", "LOCK", "ada@example.com", "y"]
        let output = try await runKiosk(configPath: configPath, lines: lines, marker: "LOCK") { _, _ in
            let organizerClient = try! ClientContext(configPath: configPath, environment: [:])
            _ = try! OrganizerSubmitter(client: organizerClient, keyPair: organizer).submit([
                .lock(LockPayload(version: 1, campaignID: "c0ffee0000000001", checkInStatus: "Attended"))
            ])
            return ""
        }
        let waiting = try #require(output.range(of: "waiting for the organizer"))
        let banner = try #require(output.range(of: "== DevConf 2026 · check-in · kiosk Hall A =="))
        #expect(waiting.lowerBound < banner.lowerBound)
        #expect(output.contains("Welcome, Ada!"))
        #expect(try daemon.replica.status().checkedIn == 1)
    }

    @Test func daemonGoneIsReportedOnScreen() async throws {
        let daemon = try await LiveDaemon.importedAndLocked()
        let configPath = daemon.configPath
        let task = try #require(daemon.task)
        // The screen sees the lock, then the daemon goes away before the attendee types.
        let lines = ["STOP", "ada@example.com", "y"]
        let output = try await runKiosk(configPath: configPath, lines: lines, marker: "STOP") { control, _ in
            // No connection stays open while the daemon stops; then wait for it to be gone.
            control.disconnect()
            let stopped = DispatchSemaphore(value: 0)
            Task {
                _ = await task.result
                stopped.signal()
            }
            task.cancel()
            _ = stopped.wait(timeout: .now() + 10)
            return ""
        }
        #expect(output.contains("== DevConf 2026 · check-in · kiosk Hall A =="))
        #expect(output.contains("See staff: something went wrong (cannot reach musterd"))
        #expect(output.contains("Please see the staff desk."))
        #expect(!output.contains("Found:") && !output.contains("Welcome"))
    }

    @Test func theScreenNeedsNeitherReplicaNorVenueFile() async throws {
        let daemon = try await LiveDaemon.importedAndLocked()
        var config = daemon.config
        // What the screen's user cannot read on a kiosk: here it does not even exist.
        config.stateDirectory = "/nonexistent/muster-state"
        config.venue = "/nonexistent/venue.toml"
        let output = try await runKiosk(config: config, lines: ["grace@example.com", "y", ""])
        #expect(output.contains("Found: Grace H."))
        #expect(output.contains("Welcome, Grace!"))
        #expect(try daemon.replica.status().checkedIn == 1)
    }

    @Test func twentySecondsLaterNothingOfThePersonBeforeIsLeft() async throws {
        let daemon = try await LiveDaemon.importedAndLocked()
        let config = daemon.config
        let clock = ManualClock()
        let lines = ["ada@example.com", "y", "WAIT", "y"]
        let output = try await runKiosk(config: config, lines: lines, clock: clock, marker: "WAIT") { _, output in
            // Ada walks away from the note prompt; the next person types "y" 20 s later.
            clock.advance(by: .seconds(20))
            output += "<<20 s>>"
            return nil
        }
        let later = try #require(output.components(separatedBy: "<<20 s>>").last)
        let wipe = String(repeating: "\n", count: config.screen.clearLines)
        #expect(later.hasPrefix(wipe), "the screen was cleared before the next line was read")
        for hidden in ["Ada", "ada@example.com", "MUS-0001", "Lovelace"] {
            #expect(!later.contains(hidden), "\(hidden) is still on screen 20 s later")
        }
        #expect(later.contains("Not found"), "the \"y\" was a query, not a check-in or a note")
        let log = try daemon.replica.presenceLog(campaignID: nil)
        #expect(log.count == 1)
        #expect(log.first?.note == nil || log.first?.note == "", "no note on Ada's record")
    }
}
