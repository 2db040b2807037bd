import Foundation
import MusterAttendeeList
import MusterRules
import Testing

/// End-to-end: the real `musterd` and `muster` binaries, a real SQLite replica, a real Unix socket.
@Suite("One kiosk, end to end", .serialized)
struct KioskEndToEndTests {
    static let salesforceCSV = """
        Campaign Member ID,First Name,Last Name,Email,Company / Account,Member Status\r
        00v5g00000A1b2cAAA,Ada,Lovelace,Ada.Lovelace@Example.com,Analytical Engines,Sent\r
        00v5g00000A1b2dAAA,Alan,Turing,alan@example.com,"Bletchley Park, Hut 8",Sent\r
        00v5g00000A1b2eAAA,Grace,Hopper,grace@example.com,US Navy,Sent\r

        """

    @Test("import, lock, kiosk screen, restart, exports")
    func endToEnd() throws {
        let kiosk = try KioskHarness.started()

        // Before any lock the kiosk checks no one in.
        let early = try kiosk.muster(["checkin", "alan@example.com"])
        #expect(early.status == 4, "no lock means refused: \(early.stdout) \(early.stderr)")
        let waiting = try kiosk.muster(["kiosk"], input: "alan@example.com\n")
        #expect(waiting.stdout.contains("waiting for the organizer"))
        #expect(!waiting.stdout.contains("Found:"))

        let csv = try kiosk.write("members.csv", Self.salesforceCSV)
        let imported = try kiosk.muster([
            "import", csv, "--campaign", "DevConf 2026", "--organizer-key", kiosk.organizerKey,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 3 attendee(s)"))
        #expect(imported.stdout.contains("salesforce"))
        let locked = try kiosk.muster([
            "lock", "DevConf 2026", "--organizer-key", kiosk.organizerKey, "--status", "Attended",
        ])
        #expect(locked.status == 0, "\(locked.stderr)")

        let screen = try kiosk.muster(
            ["kiosk"],
            input: """
                ada.lovelace@example.com
                y
                Loved the keynote
                ADA.LOVELACE@example.com
                nobody@example.com
                new
                Katherine
                Johnson
                katherine@nasa.example
                =cmd|' /C calc'!A0


                """
        )
        #expect(screen.status == 0)
        #expect(screen.stdout.contains("== DevConf 2026 · check-in · kiosk Hall A =="))
        #expect(screen.stdout.contains("Found: Ada L.\n"))
        #expect(screen.stdout.contains("Checked in at "))
        #expect(screen.stdout.contains("Welcome, Ada!"))
        #expect(screen.stdout.contains("your note is in the guestbook"))
        #expect(screen.stdout.contains("Already checked in: Ada L., at "))
        #expect(!screen.stdout.contains("Main entrance") && !screen.stdout.contains("Analytical"))
        #expect(screen.stdout.contains("no ticket or email matches"))
        #expect(screen.stdout.contains("Welcome, Katherine!"))
        #expect(screen.stdout.contains("Scan this code at re-entry:"))
        let ticketLine = try #require(
            screen.stdout.split(separator: "\n").first { $0.contains("Your ticket code is W-") }
        )
        let walkInTicket = String(ticketLine.split(separator: " ")[4].dropLast())
        #expect(walkInTicket.count == 10)
        // Nothing of other attendees leaks onto the screen.
        #expect(!screen.stdout.contains("Turing") && !screen.stdout.contains("Hopper"))

        // One-shot commands and their exit codes.
        #expect(try kiosk.muster(["checkin", "grace@example.com"]).status == 0)
        #expect(try kiosk.muster(["checkin", "grace@example.com"]).status == 3)
        #expect(try kiosk.muster(["checkin", "nobody@example.com"]).status == 2)
        #expect(try kiosk.muster(["checkin", walkInTicket.lowercased()]).status == 3)
        #expect(try kiosk.muster(["lookup", "ada.lov"]).status == 2, "no prefix search")

        let before = try kiosk.status()
        #expect(before["checkedIn"] as? Int == 3)
        #expect(before["walkIns"] as? Int == 1)
        #expect(before["attendees"] as? Int == 4)

        // Restart: everything is still there, the digest is unchanged.
        try kiosk.stop()
        try kiosk.start()
        let after = try kiosk.status()
        #expect(after["digest"] as? String == before["digest"] as? String)
        #expect(after["checkedIn"] as? Int == 3)
        let lookup = try kiosk.muster(["lookup", "ada.lovelace@example.com", "--json"])
        #expect(lookup.stdout.contains("\"checkedIn\" : true"))
        #expect(try kiosk.muster(["checkin", "ada.lovelace@example.com"]).status == 3)

        // Exports.
        let members = try CSVReader.parse(Data(try kiosk.muster(["export", "members"]).stdoutBytes))
        #expect(members.header == ["Id", "Status"])
        #expect(
            Set(members.records.map(\.fields)) == [
                ["00v5g00000A1b2cAAA", "Attended"], ["00v5g00000A1b2eAAA", "Attended"],
            ]
        )

        let leads = try CSVReader.parse(Data(try kiosk.muster(["export", "leads"]).stdoutBytes))
        #expect(leads.header == ["FirstName", "LastName", "Email", "Company", "LeadSource", "Status"])
        #expect(leads.records.count == 1)
        let lead = try #require(leads.records.first).fields
        #expect(lead[0...2] == ["Katherine", "Johnson", "katherine@nasa.example"])
        #expect(lead[3] == "'=cmd|' /C calc'!A0", "formula neutralized")

        let log = try CSVReader.parse(Data(try kiosk.muster(["export", "log"]).stdoutBytes))
        #expect(log.header.first == "Time")
        #expect(log.records.count == 3)
        let ada = try #require(log.records.first { $0.fields[3] == "Ada.Lovelace@Example.com" }).fields
        #expect(ada[1] == "check-in")
        #expect(ada[8] == "Hall A" && ada[9] == "Main entrance" && ada[10] == "Attended")
        #expect(ada[11] == "Loved the keynote")
        #expect(log.records.contains { $0.fields[1] == "walk-in" && $0.fields[7] == walkInTicket })

        try kiosk.stop()
    }

    @Test("a malformed file imports nothing and names the line")
    func malformedImport() throws {
        let kiosk = try KioskHarness.started()
        let bad = try kiosk.write(
            "bad.csv",
            "email,first_name,last_name\na@example.com,A,One\n\"b@example.com,B,Two\nc@example.com,C,Three\n"
        )
        let result = try kiosk.muster(["import", bad, "--campaign", "Broken", "--organizer-key", kiosk.organizerKey])
        #expect(result.status != 0)
        #expect(result.stderr.contains("line 3"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was imported"))
        let status = try kiosk.status()
        #expect(status["attendees"] as? Int == 0)
        #expect(try kiosk.muster(["campaigns"]).stdout.contains("No campaigns"))
        try kiosk.stop()
    }

    @Test("escape sequences in names never reach the kiosk screen")
    func escapeSequences() throws {
        let kiosk = try KioskHarness(name: "Hall \\u001B[5mB")  // a TOML escape: the name holds a real ESC
        try kiosk.start()
        let csv = try kiosk.write(
            "evil.csv",
            "email,first_name,last_name,company,ticket\n"
                + "eve@example.com,\"\u{1B}[2J\u{1B}[31mEve\",\"Mallory\u{07}\",\"\u{9B}6nEvil\u{202E} Corp\",EVIL-1\n"
        )
        #expect(
            try kiosk.muster(["import", csv, "--campaign", "Evil", "--organizer-key", kiosk.organizerKey]).status == 0
        )
        #expect(try kiosk.muster(["lock", "Evil", "--organizer-key", kiosk.organizerKey]).status == 0)
        let screen = try kiosk.muster(
            ["kiosk"],
            input:
                "EVIL-1\ny\n\u{1B}]0;pwned\u{07}note\u{1B}[2J\nEVIL-1\nnew\n\u{1B}[1;1HMal\nlory\u{9B}2J\nmal@example.com\n\u{1B}c\n\n"
        )
        for forbidden: UInt8 in [0x1B, 0x07, 0x9B] {
            #expect(!screen.stdoutBytes.contains(forbidden), "byte \(forbidden) reached the screen")
        }
        // C1 CSI as UTF-8 (C2 9B) must be gone too.
        #expect(!screen.stdout.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E })
        #expect(screen.stdout.contains("Found: Eve M."))
        #expect(!screen.stdout.contains("Mallory"), "no last name before confirmation")
        #expect(screen.stdout.contains("Welcome, Eve!"))
        let staff = try kiosk.muster(["attendees"])
        #expect(!staff.stdoutBytes.contains(0x1B))
        let export = try kiosk.muster(["export", "log"])
        #expect(!export.stdoutBytes.contains(0x1B))
        try kiosk.stop()
    }
}
