import Foundation
import MusterAttendeeList
import Testing

/// The real `muster kiosk` on a real terminal (a tmux pane, 80 columns by 24 rows unless a test asks for
/// more) against a real `musterd`: what a person walking up to the kiosk after someone else actually
/// sees, read back with `tmux capture-pane`.
@Suite("Kiosk screen on a terminal, end to end", .serialized)
struct KioskScreenTmuxTests {
    static let attendees = """
        email,first_name,last_name,company,ticket
        ada.lovelace@example.com,Ada,Lovelace,Analytical Engines,MUS-0001
        grace@example.com,Grace,Hopper,US Navy,MUS-0002

        """

    /// One tmux server of its own (`-L`), so the test never touches anyone's tmux.
    struct Pane {
        let tmux: URL
        let server = "muster-it-\(UUID().uuidString.prefix(8))"

        func run(_ arguments: [String]) throws -> String {
            let (result, _) = try runProcess(tmux, ["-L", server] + arguments, environment: ["TERM": "xterm"])
            guard result.status == 0 else {
                throw KioskHarness.HarnessError(description: "tmux \(arguments.first ?? ""): \(result.stderr)")
            }
            return result.stdout
        }

        /// Starts the session. The tmux server this forks would keep open every descriptor it inherits
        /// (the output pipes, and the socket Foundation's `Process` watches for the child's exit), and
        /// whoever waits on them would wait forever: so bash (which, unlike dash, can close descriptors
        /// above 9) closes all of them and gives tmux /dev/null instead.
        func start(_ command: String, rows: Int = 24) throws {
            let (result, _) = try runProcess(
                URL(fileURLWithPath: "/bin/bash"),
                [
                    "-c",
                    "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done; "
                        + "exec \"$0\" -L \"$1\" new-session -d -s kiosk -x 80 -y \"$3\" \"$2\" </dev/null >/dev/null 2>&1",
                    tmux.path, server, command, String(rows),
                ],
                environment: ["TERM": "xterm", "PATH": "/usr/bin:/bin"]
            )
            guard result.status == 0 else {
                throw KioskHarness.HarnessError(description: "tmux new-session exited \(result.status)")
            }
        }

        func type(_ line: String) throws {
            if !line.isEmpty { _ = try run(["send-keys", "-t", "kiosk", "-l", line]) }
            _ = try run(["send-keys", "-t", "kiosk", "Enter"])
        }

        /// What is on the screen now (not the scrollback).
        func capture() throws -> String { try run(["capture-pane", "-p", "-t", "kiosk"]) }

        /// The screen and its whole scrollback: what anyone could scroll back to, or a screen reader
        /// review, at the kiosk.
        func captureHistory() throws -> String { try run(["capture-pane", "-p", "-S", "-", "-t", "kiosk"]) }

        func waitFor(_ text: String, timeout: Double = 15) throws {
            try waitUntil("the pane shows '\(text)'", timeout: timeout) { try capture().contains(text) }
        }

        /// Ends the server and the screen in it. Both inherited this test process's blocked signals
        /// (Foundation does not reset the mask when it spawns), so the SIGHUP of `kill-server` may never
        /// arrive: they are killed by their process ids as well.
        func kill() {
            let pids = (try? run(["display-message", "-p", "-t", "kiosk", "#{pane_pid} #{pid}"])) ?? ""
            _ = try? run(["kill-server"])
            for pid in pids.split(whereSeparator: \.isWhitespace).compactMap({ Int32($0) }) where pid > 1 {
                Foundation.kill(pid, SIGKILL)
            }
        }
    }

    static func findTmux() throws -> URL {
        for path in ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        where FileManager.default.isExecutableFile(
            atPath: path
        ) {
            return URL(fileURLWithPath: path)
        }
        throw KioskHarness.HarnessError(description: "tmux is not installed (scripts/install-deps.sh installs it)")
    }

    /// A kiosk with the test's attendees imported and locked, its screen timeouts shortened from 15 s and
    /// 30 s so a test takes seconds (the same code path as the defaults).
    ///
    /// A list with ticket details goes out once every enrolled kiosk (here this one) says it reads them,
    /// so the kiosk's own status is awaited first.
    static func lockedKiosk(_ attendees: String = Self.attendees, idleSeconds: Int = 3) throws -> KioskHarness {
        let kiosk = try KioskHarness()
        try kiosk.appendToConfig("\n[screen]\noutcome_seconds = 2\nidle_seconds = \(idleSeconds)\n")
        try kiosk.start()
        try waitUntil("the kiosk's own status is in its fleet", timeout: 30) {
            try kiosk.muster(["fleet", "--json"]).stdout.contains("\"software\"")
        }
        let csv = try kiosk.write("attendees.csv", attendees)
        let imported = try kiosk.muster(["import", csv, "--campaign", "DevConf", "--organizer-key", kiosk.organizerKey])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try kiosk.muster(["lock", "DevConf", "--organizer-key", kiosk.organizerKey]).status == 0)
        return kiosk
    }

    @Test(
        "after the reset nothing of the person before is on the screen or in its scrollback, however tall",
        arguments: [24, 40, 67]
    )
    func resetClearsScrollback(rows: Int) throws {
        let kiosk = try Self.lockedKiosk()
        defer { try? kiosk.stop() }
        let pane = Pane(tmux: try Self.findTmux())
        defer { pane.kill() }
        let muster = kiosk.binaries.appendingPathComponent("muster").path
        try pane.start("env TZ=UTC \(muster) kiosk --config \(kiosk.configPath)", rows: rows)
        try pane.waitFor("== DevConf · check-in · kiosk Hall A ==")
        try pane.type("ada.lovelace@example.com")
        try pane.waitFor("Is this you?")
        try pane.type("y")
        try pane.waitFor("Welcome, Ada!")
        #expect(try pane.capture().contains("Checked in at"))

        // Ada walks away. The reset is over when the main prompt is the last line again.
        try waitUntil("the screen is back at the main prompt", timeout: 20) {
            let lines = try pane.captureHistory().split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
            return lines.last?.hasPrefix("Email or ticket code") == true
        }
        let history = try pane.captureHistory()
        for hidden in ["Found: Ada L.", "Welcome, Ada!", "Checked in at", "Ada", "ada.lovelace", "Lovelace"] {
            #expect(!history.contains(hidden), "\(rows) rows: '\(hidden)' is still on screen or in its scrollback")
        }
        let lines = history.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "== DevConf · check-in · kiosk Hall A ==", "\(rows) rows: the header is the top line")

        // The next person is served on the cleared screen.
        try pane.type("grace@example.com")
        try pane.waitFor("Found: Grace H.")
    }

    @Test("A checks in; after the outcome timeout nothing of A is on screen, and a typed y checks no one in")
    func nothingOfThePersonBefore() throws {
        let kiosk = try KioskHarness()
        // Shortened from 15 s and 30 s so the test takes seconds: the same code path as the defaults.
        try kiosk.appendToConfig("\n[screen]\noutcome_seconds = 2\nidle_seconds = 3\n")
        try kiosk.start()
        defer { try? kiosk.stop() }
        let csv = try kiosk.write("attendees.csv", Self.attendees)
        #expect(
            try kiosk.muster(["import", csv, "--campaign", "DevConf", "--organizer-key", kiosk.organizerKey]).status
                == 0
        )
        #expect(try kiosk.muster(["lock", "DevConf", "--organizer-key", kiosk.organizerKey]).status == 0)

        let pane = Pane(tmux: try Self.findTmux())
        defer { pane.kill() }
        let muster = kiosk.binaries.appendingPathComponent("muster").path
        try pane.start("env TZ=UTC \(muster) kiosk --config \(kiosk.configPath)")
        try pane.waitFor("== DevConf · check-in · kiosk Hall A ==")

        // Person A.
        try pane.type("ada.lovelace@example.com")
        try pane.waitFor("Is this you?")
        let confirming = try pane.capture()
        #expect(confirming.contains("Found: Ada L."))
        #expect(!confirming.contains("Lovelace ") && !confirming.contains("Analytical"), "masked before confirmation")
        try pane.type("y")
        try pane.waitFor("Welcome, Ada!")
        #expect(try kiosk.status()["checkedIn"] as? Int == 1)

        // A walks away from the guestbook question. Once the timeout passes, nothing of A is left.
        let private_ = ["Ada", "ada.lovelace", "MUS-0001", "Lovelace", "Analytical", "Checked in at"]
        try waitUntil("the pane no longer shows A", timeout: 20) {
            let screen = try pane.capture()
            return private_.allSatisfy { !screen.contains($0) } && screen.contains("Email or ticket code")
        }

        // The next person types "y": a query, not A's confirmation, check-in or note.
        try pane.type("y")
        try pane.waitFor("Not found")
        #expect(try kiosk.status()["checkedIn"] as? Int == 1)
        let log = try CSVReader.parse(Data(try kiosk.muster(["export", "log"]).stdoutBytes))
        #expect(log.records.count == 1, "one check-in, no other record")
        #expect(log.records.first?.fields[11] == "", "no note on A's record")
    }

    /// A list with ticket details (issue 35): a party of three in one order and a speaker whose ticket
    /// needs staff.
    static let detailed = """
        email,first_name,last_name,company,ticket,order,attention,attention_text
        ada.lovelace@example.com,Ada,Lovelace,Analytical Engines,MUS-0001,ORD1,,
        grace@example.com,Grace,Hopper,US Navy,MUS-0002,ORD1,,
        katherine@example.com,Katherine,Johnson,NASA,MUS-0003,ORD1,,
        speaker@example.com,Sam,Speaker,Keynotes,MUS-0004,,yes,Check photo ID: under 18

        """

    @Test("an attention ticket and a party on the real screen: staff's text and the others' names never show")
    func attentionAndPartiesShowNobodyElse() throws {
        let kiosk = try Self.lockedKiosk(Self.detailed, idleSeconds: 5)
        defer { try? kiosk.stop() }
        let pane = Pane(tmux: try Self.findTmux())
        defer { pane.kill() }
        let muster = kiosk.binaries.appendingPathComponent("muster").path
        try pane.start("env TZ=UTC \(muster) kiosk --config \(kiosk.configPath)")
        try pane.waitFor("== DevConf · check-in · kiosk Hall A ==")

        // The speaker: sent to staff, in the screen's words only.
        try pane.type("speaker@example.com")
        try pane.waitFor("Is this you?")
        try pane.type("y")
        try pane.waitFor("Please see a member of staff.")
        #expect(!(try pane.captureHistory()).contains("photo ID"), "the attention text is staff's")
        #expect(try kiosk.status()["checkedIn"] as? Int == 0)
        try waitUntil("the screen is back at the main prompt", timeout: 20) {
            try pane.capture().split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }?
                .hasPrefix("Email or ticket code") == true && !(try pane.capture()).contains("staff")
        }

        // Ada, and the two others of her order: a count, a yes, and nobody's name but hers.
        try pane.type("MUS-0001")
        try pane.waitFor("Is this you?")
        try pane.type("y")
        try pane.waitFor("Your order has 2 more ticket(s)")
        try pane.type("y")
        try pane.waitFor("Checked in with you: 2 more.")
        let history = try pane.captureHistory()
        for other in ["Grace", "Hopper", "Katherine", "Johnson", "grace@", "MUS-0002", "ORD1"] {
            #expect(!history.contains(other), "'\(other)' of Ada's party is on the public screen")
        }
        #expect(try kiosk.status()["checkedIn"] as? Int == 3)
        // Staff see who went in, and the audit holds the speaker's needs_staff scan.
        let audit = try kiosk.muster(["export", "audit"]).stdout
        #expect(audit.contains("speaker@example.com,refused,needs_staff"))
    }
}
