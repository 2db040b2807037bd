import Foundation
import MusterTestSupport
import Testing

/// The reprint guard across kiosks (issue 15), with real daemons: two kiosks in the lab
/// (`scripts/lab`: each in its own network and mount namespace, finding the other through its own
/// avahi-daemon), both printing to one private cupsd the test started, whose socket is a file the
/// kiosks' namespaces see. The cupsd's queue prints to a virtual IPP printer on the host's loopback;
/// the host's own CUPS is never used. The lab is torn down and cupsd stopped even when the test fails.
@Suite(
    "Lab: the badge guard across kiosks",
    .serialized,
    .enabled(
        if: PrivateCups.isAvailable && ToolRun.available("pdftotext") && ToolRun.available("sqlite3"),
        "needs root, cups, cups-ipp-utils, poppler-utils and sqlite3"
    )
)
struct BadgeLabTests {
    /// A lab of its own (namespace prefix and directory), so it never meets another lab's kiosks.
    final class BadgeLab {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var directory: URL { root.appendingPathComponent(".lab-badge") }
        var script: String { root.appendingPathComponent("scripts/lab").path }
        var organizerKey: String { directory.appendingPathComponent("venue/organizer.key").path }

        /// Brings up `kiosks` kiosks whose musterd prints badges on `cups`'s queue.
        convenience init(kiosks: Int, printingTo cups: PrivateCups) throws {
            try self.init(printers: Array(repeating: cups, count: kiosks))
        }

        /// Brings up one kiosk per printer, kiosk i printing on `printers[i - 1]`'s queue, with
        /// `extra[i]` appended to its config.
        init(printers: [PrivateCups], extra: [Int: String] = [:]) throws {
            do {
                try check(run(["up", "\(printers.count)", "--no-daemon"]), "lab up")
                for (index, cups) in printers.enumerated() {
                    let kiosk = index + 1
                    // In the config file, not only as musterd flags: the screen (`muster kiosk`)
                    // reads `printer` to know that a badge follows the check-in.
                    let config = directory.appendingPathComponent("k\(kiosk)/musterd.toml").path
                    let text = try String(contentsOfFile: config, encoding: .utf8)
                    let printing = "\nprinter = \"\(cups.queue)\"\ncups_server = \"\(cups.socketPath)\"\n"
                    try (text + printing + (extra[kiosk] ?? "")).write(
                        toFile: config,
                        atomically: true,
                        encoding: .utf8
                    )
                    try check(run(["start", "\(kiosk)"]), "lab start \(kiosk)")
                }
            } catch {
                _ = try? run(["down"])
                throw error
            }
        }

        deinit { _ = try? run(["down"]) }

        func check(_ result: KioskHarness.Result, _ what: String) throws {
            guard result.status == 0 else {
                throw KioskHarness.HarnessError(description: "\(what) failed: \(result.stdout)\(result.stderr)")
            }
        }

        @discardableResult
        func run(_ arguments: [String], input: String? = nil) throws -> KioskHarness.Result {
            var environment = ProcessInfo.processInfo.environment
            environment["TZ"] = "UTC"
            environment["MUSTER_LAB_PREFIX"] = "mbadge"
            environment["MUSTER_LAB_DIR"] = directory.path
            if let binaries = try? KioskHarness.findBinaries() { environment["MUSTER_BIN"] = binaries.path }
            return try runProcess(
                URL(fileURLWithPath: "/bin/bash"),
                [script] + arguments,
                environment: environment,
                input: input
            ).result
        }

        func exec(_ kiosk: Int, _ command: [String], input: String? = nil) throws -> KioskHarness.Result {
            try run(["exec", "\(kiosk)"] + command, input: input)
        }

        func status(_ kiosk: Int) throws -> [String: Any] { try labStatus(of: kiosk) { try exec($0, $1) } }

        /// Once k1 and k2 are in session: the sample list imported and locked on k1, and held by k2.
        func importAndLock() throws {
            try waitUntil("k1 and k2 are in session", timeout: 30) {
                try (1...2).allSatisfy { (try self.status($0)["peers"] as? [String])?.count == 1 }
            }
            let sample = root.appendingPathComponent("scripts/sample-attendees.csv").path
            try check(
                exec(1, ["muster", "import", sample, "--campaign", "Lab", "--organizer-key", organizerKey]),
                "import"
            )
            try check(exec(1, ["muster", "lock", "Lab", "--organizer-key", organizerKey]), "lock")
            try waitUntil("k2 has the list and the lock", timeout: 30) {
                try self.status(2)["campaign"] as? String == "Lab"
            }
        }

        /// The badges kiosk `kiosk`'s replica holds, as "attendee reason kiosk-name", read-only.
        func badges(_ kiosk: Int) throws -> [String] {
            let replica = directory.appendingPathComponent("k\(kiosk)/state/replica.sqlite").path
            let run = try ToolRun.run(
                "sqlite3",
                [
                    "-readonly", replica,
                    """
                    SELECT b.attendee_key || ' ' || b.reason || ' ' || COALESCE(r.name, '?')
                    FROM badge b LEFT JOIN roster r ON r.kiosk = b.author ORDER BY b.hlc, b.author, b.seq
                    """,
                ]
            )
            guard run.status == 0 else { throw ToolError("sqlite3 on k\(kiosk): \(run.errorOutput)") }
            return run.output.split(whereSeparator: \.isNewline).map(String.init)
        }
    }

    /// A badge printed on k1 reaches k2 as a signed delta; the attendee steps out and comes back
    /// through k2's screen: the check-in stands, no badge prints, and the screen says to see staff.
    @Test(.enabled(if: getuid() == 0))
    func aBadgePrintedOnK1BlocksASelfServiceReprintOnK2() async throws {
        let cups = try PrivateCups()
        defer { cups.shutdown() }
        let lab = try BadgeLab(kiosks: 2, printingTo: cups)

        try lab.importAndLock()

        // k1: Grace checks in on the screen and her badge prints.
        let atK1 = try lab.exec(1, ["muster", "kiosk"], input: "MUS-0002\ny\n\n")
        #expect(atK1.status == 0, "\(atK1.stderr)")
        #expect(atK1.stdout.contains("Your badge is ready: please take it from the printer."), "\(atK1.stdout)")
        let jobs = try await cups.printer.waitForJobs(1)
        let text = try BadgeEndToEndTests.text(ofFile: try write(jobs[0], in: cups))
        #expect(text.contains("Grace") && text.contains("Hopper"), "\(text)")
        #expect(try lab.badges(1) == ["grace.hopper@navy.example 1 k1"])

        // k2 learns of the badge (and of the check-in) through sync.
        try waitUntil("k2 holds k1's badge delta", timeout: 30) {
            try lab.badges(2) == ["grace.hopper@navy.example 1 k1"]
        }

        // Grace steps out and comes back in at k2's screen.
        try lab.check(lab.exec(2, ["muster", "checkout", "MUS-0002"]), "checkout on k2")
        let atK2 = try lab.exec(2, ["muster", "kiosk"], input: "MUS-0002\ny\n\n")
        #expect(atK2.status == 0, "\(atK2.stderr)")
        #expect(atK2.stdout.contains("Checked in at "), "the re-entry stands: \(atK2.stdout)")
        #expect(
            atK2.stdout.contains("A badge was already printed for you. Please see the staff desk for another."),
            "\(atK2.stdout)"
        )
        #expect(!atK2.stdout.contains("Your badge is ready"))
        #expect(cups.printer.jobs.count == 1, "the printer received exactly one job")
        #expect(try lab.badges(2).count == 1, "and k2 recorded no badge")
        #expect(try lab.status(2)["checkedIn"] as? Int == 1)
    }

    /// `[badge] fallback` (issue 37, item 5): k1's queue is stopped (out of labels), so Grace's badge,
    /// asked for by k1's screen after her check-in, prints on k2's own cupsd through the sync session;
    /// k1's screen says where to collect it, k2 records the badge, and the reprint guard holds
    /// venue-wide: Grace back at k1's screen gets no second badge anywhere.
    @Test(.enabled(if: getuid() == 0))
    func aBadgeK1CannotPrintComesOutOnK2sPrinter() async throws {
        let local = try PrivateCups()
        defer { local.shutdown() }
        let neighbour = try PrivateCups()
        defer { neighbour.shutdown() }
        try local.stopQueue()
        let lab = try BadgeLab(printers: [local, neighbour], extra: [1: "\n[badge]\nfallback = \"k2\"\n"])

        try lab.importAndLock()

        let atK1 = try lab.exec(1, ["muster", "kiosk"], input: "MUS-0002\ny\n\n")
        #expect(atK1.status == 0, "\(atK1.stderr)")
        #expect(atK1.stdout.contains("Your badge is printing at k2: please collect it there."), "\(atK1.stdout)")
        let jobs = try await neighbour.printer.waitForJobs(1)
        let text = try BadgeEndToEndTests.text(ofFile: try write(jobs[0], in: neighbour))
        #expect(text.contains("Grace") && text.contains("Hopper"), "\(text)")
        #expect(local.printer.jobs.isEmpty, "nothing came out of k1's stopped queue")
        #expect(try lab.badges(2) == ["grace.hopper@navy.example 1 k2"], "recorded by the kiosk that printed it")
        try waitUntil("k1 holds k2's badge delta", timeout: 30) {
            try lab.badges(1) == ["grace.hopper@navy.example 1 k2"]
        }

        // Grace steps out and comes back in at k1's screen: the guard holds across the two printers.
        try lab.check(lab.exec(1, ["muster", "checkout", "MUS-0002"]), "checkout on k1")
        let again = try lab.exec(1, ["muster", "kiosk"], input: "MUS-0002\ny\n\n")
        #expect(again.stdout.contains("Checked in at "), "the re-entry stands: \(again.stdout)")
        #expect(
            again.stdout.contains("A badge was already printed for you. Please see the staff desk for another."),
            "\(again.stdout)"
        )
        #expect(neighbour.printer.jobs.count == 1 && local.printer.jobs.isEmpty, "no second badge anywhere")
        #expect(try lab.badges(2).count == 1)
    }

    /// Writes a printed document next to the printer's files, for pdftotext.
    func write(_ document: Data, in cups: PrivateCups) throws -> String {
        let path = cups.directory.file("read-\(UUID().uuidString.prefix(8)).pdf")
        try document.write(to: URL(fileURLWithPath: path))
        return path
    }
}
