import Foundation
import MusterTestSupport
import Testing

/// Badges end to end (issue 15): the real `muster` and `musterd` binaries, a real replica, and a
/// private cupsd whose queue prints to a virtual IPP printer (``PrivateCups``). The PDF the printer
/// received is read back with `pdftotext`; the badge deltas are read from the kiosk's replica with
/// `sqlite3` (read-only).
@Suite(
    "Badges end to end",
    .serialized,
    .enabled(
        if: PrivateCups.isAvailable && ToolRun.available("pdftotext") && ToolRun.available("sqlite3"),
        "needs root, cups, cups-ipp-utils, poppler-utils and sqlite3"
    )
)
struct BadgeEndToEndTests {
    /// A started kiosk with the sample list imported and locked; with `cups`, it prints to its queue.
    static func kiosk(printingTo cups: PrivateCups?) throws -> KioskHarness {
        let kiosk = try KioskHarness()
        if let cups {
            let config = try String(contentsOfFile: kiosk.configPath, encoding: .utf8)
            try (config + "\nprinter = \"\(cups.queue)\"\ncups_server = \"\(cups.socketPath)\"\n")
                .write(toFile: kiosk.configPath, atomically: true, encoding: .utf8)
        }
        try kiosk.start()
        let csv = try kiosk.write("members.csv", KioskEndToEndTests.salesforceCSV)
        let imported = try kiosk.muster([
            "import", csv, "--campaign", "DevConf 2026", "--organizer-key", kiosk.organizerKey,
        ])
        guard imported.status == 0 else { throw KioskHarness.HarnessError(description: "import: \(imported.stderr)") }
        let locked = try kiosk.muster(["lock", "DevConf 2026", "--organizer-key", kiosk.organizerKey])
        guard locked.status == 0 else { throw KioskHarness.HarnessError(description: "lock: \(locked.stderr)") }
        return kiosk
    }

    /// `pdftotext` of a PDF's bytes.
    static func text(of pdf: Data, in kiosk: KioskHarness) throws -> String {
        let path = kiosk.directory.appendingPathComponent("read-\(UUID().uuidString.prefix(8)).pdf").path
        try pdf.write(to: URL(fileURLWithPath: path))
        return try text(ofFile: path)
    }

    static func text(ofFile path: String) throws -> String {
        let run = try ToolRun.run("pdftotext", ["-enc", "UTF-8", path, "-"])
        guard run.status == 0 else { throw ToolError("pdftotext \(path): \(run.errorOutput)") }
        return run.output
    }

    /// The badge deltas in the kiosk's replica, as (attendee key, reason) oldest first.
    static func badges(_ kiosk: KioskHarness) throws -> [String] {
        let replica = kiosk.directory.appendingPathComponent("state/replica.sqlite").path
        let run = try ToolRun.run(
            "sqlite3",
            ["-readonly", replica, "SELECT attendee_key || ' ' || reason FROM badge ORDER BY hlc, author, seq"]
        )
        guard run.status == 0 else { throw ToolError("sqlite3: \(run.errorOutput)") }
        return run.output.split(whereSeparator: \.isNewline).map(String.init)
    }

    static func checkedIn(_ kiosk: KioskHarness) throws -> Int? { try kiosk.status()["checkedIn"] as? Int }

    /// `muster badge preview` writes a PDF, a PNG or ZPL of the badge, prints nothing and records
    /// nothing.
    @Test func previewWritesAPDFAPNGAndZPL() throws {
        let kiosk = try Self.kiosk(printingTo: nil)
        let pdf = kiosk.directory.appendingPathComponent("grace.pdf").path
        let made = try kiosk.muster(["badge", "preview", "grace@example.com", "--out", pdf])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == pdf)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        #expect(bytes.starts(with: Array("%PDF-".utf8)))
        let text = try Self.text(ofFile: pdf)
        for word in ["DevConf 2026", "Grace", "Hopper", "US Navy"] {
            #expect(text.contains(word), "'\(word)' not in the preview: \(text)")
        }

        let png = kiosk.directory.appendingPathComponent("grace.png").path
        let image = try kiosk.muster(["badge", "preview", "MUS-NOPE", "--out", png])
        #expect(image.status == 2, "an unknown ticket is not found: \(image.stdout) \(image.stderr)")
        #expect(!FileManager.default.fileExists(atPath: png), "nothing is written for an unknown attendee")
        #expect(try kiosk.muster(["badge", "preview", "grace@example.com", "--out", png]).status == 0)
        let pngBytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(pngBytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))

        let zpl = kiosk.directory.appendingPathComponent("grace.zpl").path
        #expect(try kiosk.muster(["badge", "preview", "grace@example.com", "--out", zpl]).status == 0)
        let label = try String(contentsOfFile: zpl, encoding: .utf8)
        #expect(label.hasPrefix("^XA\n^PW496\n^LL799\n") && label.hasSuffix("^XZ\n"), "\(label.prefix(80))")

        let wrongType = try kiosk.muster(["badge", "preview", "grace@example.com", "--out", "grace.jpg"])
        #expect(wrongType.status == 64, "a format it cannot write is a usage error: \(wrongType.stderr)")
        #expect(wrongType.stderr.contains("grace.jpg"))

        #expect(try Self.badges(kiosk).isEmpty, "a preview records nothing")
        #expect(try Self.checkedIn(kiosk) == 0)
    }

    /// `muster badge print` prints without checking in; `reprint` prints again; both are recorded.
    @Test func printAndReprintReachThePrinterAndAreRecorded() async throws {
        let cups = try PrivateCups()
        defer { cups.shutdown() }
        let kiosk = try Self.kiosk(printingTo: cups)

        let printed = try kiosk.muster(["badge", "print", "grace@example.com"])
        #expect(printed.status == 0, "\(printed.stdout) \(printed.stderr)")
        #expect(printed.stdout.hasPrefix("Badge printed: Grace Hopper (US Navy) (job "), "\(printed.stdout)")
        let first = try await cups.printer.waitForJobs(1)
        let text = try Self.text(of: first[0], in: kiosk)
        for word in ["DevConf 2026", "Grace", "Hopper", "US Navy"] {
            #expect(text.contains(word), "'\(word)' not in the printed badge: \(text)")
        }
        #expect(try Self.checkedIn(kiosk) == 0, "print-only checks no one in")
        #expect(try Self.badges(kiosk) == ["grace@example.com 3"], "recorded as print-only")

        let reprint = try kiosk.muster(["badge", "reprint", "grace@example.com", "--json"])
        #expect(reprint.status == 0, "\(reprint.stdout) \(reprint.stderr)")
        let answer = try JSONSerialization.jsonObject(with: Data(reprint.stdout.utf8)) as? [String: Any]
        #expect(answer?["outcome"] as? String == "badge_printed")
        #expect(answer?["badgeJob"] as? Int != nil)
        #expect(try await cups.printer.waitForJobs(2).count == 2)
        #expect(try Self.badges(kiosk) == ["grace@example.com 3", "grace@example.com 2"], "then a reprint")
        // The daemon answers only after CUPS reported the job completed: no third job follows.
        #expect(cups.printer.jobs.count == 2)
    }

    /// Unknown attendees, a stopped queue and a kiosk without a printer: clear words, the documented
    /// exit codes, nothing printed and nothing recorded.
    @Test func failuresSayWhyWithTheirExitCodes() throws {
        let cups = try PrivateCups()
        defer { cups.shutdown() }
        let kiosk = try Self.kiosk(printingTo: cups)
        for command in ["print", "reprint"] {
            let unknown = try kiosk.muster(["badge", command, "nobody@example.com"])
            #expect(unknown.status == 2, "\(command): \(unknown.stdout) \(unknown.stderr)")
            #expect(unknown.stdout.contains("Not found: no ticket or email matches."), "\(unknown.stdout)")
        }

        try cups.stopQueue()
        let stopped = try kiosk.muster(["badge", "reprint", "alan@example.com"])
        #expect(stopped.status == 6, "\(stopped.stdout) \(stopped.stderr)")
        #expect(stopped.stdout.contains("Badge not printed: Alan Turing"), "\(stopped.stdout)")
        #expect(
            stopped.stdout.contains("the printer queue badge on \(cups.socketPath) is stopped"),
            "\(stopped.stdout)"
        )
        #expect(cups.printer.jobs.isEmpty)
        #expect(try Self.badges(kiosk).isEmpty)

        let bare = try Self.kiosk(printingTo: nil)
        let none = try bare.muster(["badge", "print", "alan@example.com"])
        #expect(none.status == 6, "\(none.stdout) \(none.stderr)")
        #expect(none.stdout.contains("No printer is configured on this kiosk."), "\(none.stdout)")
        #expect(try Self.badges(bare).isEmpty)
    }

    /// A walk-in registered on the self-service screen gets a badge with their name; when they come
    /// back after stepping out, the screen checks them in again but prints no second badge and sends
    /// them to the staff desk, where a reprint works.
    @Test func aWalkInGetsABadgeAndTheGuardAppliesToThem() async throws {
        let cups = try PrivateCups()
        defer { cups.shutdown() }
        let kiosk = try Self.kiosk(printingTo: cups)

        let registered = try kiosk.muster(
            ["kiosk"],
            input: "new\nKatherine\nJohnson\nkatherine@nasa.example\nNASA Langley\n\n"
        )
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(registered.stdout.contains("Welcome, Katherine!"), "\(registered.stdout)")
        #expect(registered.stdout.contains("Your badge is ready: please take it from the printer."))
        let jobs = try await cups.printer.waitForJobs(1)
        let text = try Self.text(of: jobs[0], in: kiosk)
        for word in ["DevConf 2026", "Katherine", "Johnson", "NASA Langley"] {
            #expect(text.contains(word), "'\(word)' not in the walk-in's badge: \(text)")
        }
        #expect(try Self.badges(kiosk) == ["katherine@nasa.example 1"], "a self-service badge")

        #expect(try kiosk.muster(["checkout", "katherine@nasa.example"]).status == 0)
        let back = try kiosk.muster(["kiosk"], input: "katherine@nasa.example\ny\n\n")
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("Checked in at "), "the re-entry stands: \(back.stdout)")
        #expect(
            back.stdout.contains("A badge was already printed for you. Please see the staff desk for another."),
            "\(back.stdout)"
        )
        #expect(cups.printer.jobs.count == 1, "no second badge from the screen")
        #expect(try Self.badges(kiosk).count == 1)

        #expect(try kiosk.muster(["badge", "reprint", "katherine@nasa.example"]).status == 0)
        #expect(try await cups.printer.waitForJobs(2).count == 2)
        #expect(try Self.badges(kiosk) == ["katherine@nasa.example 1", "katherine@nasa.example 2"])
    }
}
