import Foundation
import Testing

/// The organizer's side against a real daemon: a passphrase-sealed key, the check-in window, undo.
@Suite("Organizer, end to end", .serialized)
struct OrganizerEndToEndTests {
    static let csv =
        "email,first_name,last_name,company,ticket\nada@example.com,Ada,Lovelace,Engines,T-1\nbob@example.com,Bob,Byte,,T-2\n"

    @Test("venue create keeps the venue file with the organizer: enrollment carries the network key, sealed")
    func venueFileStaysWithTheOrganizer() throws {
        let kiosk = try KioskHarness(enroll: false)
        let out = kiosk.directory.appendingPathComponent("second-venue").path
        let created = try kiosk.muster(["venue", "create", "--out", out, "--name", "Second"])
        #expect(created.status == 0, "\(created.stderr)")
        let said = created.stdout + created.stderr
        #expect(!said.contains("copy to every kiosk"), "\(said)")
        #expect(said.contains("keep it with the organizer key"), "\(said)")
        #expect(said.contains("muster enroll"), "\(said)")
    }

    @Test("a sealed organizer key needs its passphrase; the wrong one signs nothing")
    func sealedKey() throws {
        let kiosk = try KioskHarness(passphrase: "correct horse battery staple")
        try kiosk.start()
        let key = try String(contentsOfFile: kiosk.organizerKey, encoding: .utf8)
        #expect(key.contains("sealed_seed"))
        #expect(!key.contains("\nseed ="))
        let file = try kiosk.write("list.csv", Self.csv)
        let args = ["import", file, "--campaign", "Gala", "--organizer-key", kiosk.organizerKey]
        let wrong = try kiosk.muster(args, environment: ["MUSTER_PASSPHRASE": "wrong"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.lowercased().contains("passphrase"))
        #expect(try kiosk.status()["attendees"] as? Int == 0)
        let right = try kiosk.muster(args, environment: ["MUSTER_PASSPHRASE": "correct horse battery staple"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(try kiosk.status()["attendees"] as? Int == 2)
        try kiosk.stop()
    }

    @Test("outside the check-in window the kiosk refuses with the opening time; undo un-checks")
    func windowAndUndo() throws {
        let kiosk = try KioskHarness.started()
        let file = try kiosk.write("list.csv", Self.csv)
        #expect(
            try kiosk.muster(["import", file, "--campaign", "Gala", "--organizer-key", kiosk.organizerKey]).status == 0
        )
        #expect(
            try kiosk.muster(["lock", "Gala", "--organizer-key", kiosk.organizerKey, "--opens", "2099-01-01 09:00"])
                .status == 0
        )
        let early = try kiosk.muster(["checkin", "ada@example.com"])
        #expect(early.status == 4)
        #expect(early.stdout.contains("opens at 09:00"))
        let screen = try kiosk.muster(["kiosk"], input: "ada@example.com\n")
        #expect(screen.stdout.contains("Check-in opens at 09:00"))
        #expect(!screen.stdout.contains("Found:"))

        // A newer lock wins: open now.
        #expect(
            try kiosk.muster(["lock", "Gala", "--organizer-key", kiosk.organizerKey, "--status", "Attended"]).status
                == 0
        )
        #expect(try kiosk.muster(["checkin", "T-2"]).status == 0)
        #expect(try kiosk.status()["checkedIn"] as? Int == 1)
        let undo = try kiosk.muster(["undo", "bob@example.com", "--organizer-key", kiosk.organizerKey])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(try kiosk.status()["checkedIn"] as? Int == 0)
        #expect(try kiosk.muster(["checkin", "T-2"]).status == 0, "after undo the person can check in again")

        // A key that is not the venue's organizer key signs nothing.
        let other = try KioskHarness()
        let foreign = try kiosk.muster(["unlock", "--organizer-key", other.organizerKey])
        #expect(foreign.status != 0)
        #expect(foreign.stderr.contains("not the organizer key"))
        #expect(try kiosk.status()["campaign"] as? String == "Gala")
        try kiosk.stop()
    }
}
