import Foundation
import MusterTestSupport
import Testing

/// Hostile attendee files against the real `muster import` and a real daemon: each one ends in a clear error or a
/// success, within a fixed memory budget, and a rejected file leaves no attendee behind.
///
/// The big files are generated in the kiosk's temporary directory at test time and removed with it.
@Suite("Import limits, end to end", .serialized)
struct ImportLimitsEndToEndTests {
    /// The heap `muster import` may use (RLIMIT_DATA). Refusing the million-row file (50 MiB) needs about 72 MiB;
    /// parsing all of it into a table first, as imports once did, needs over 512 MiB and dies under this budget.
    static let memoryBudget = 256 * 1024 * 1024

    @Test("a million rows: refused at row 250,001 within the memory budget; nothing imported")
    func millionRows() throws {
        let kiosk = try KioskHarness.started()
        let file = try Self.writeRows(1_000_000, in: kiosk, name: "million.csv")
        let started = Date()
        let result = try LimitedImport.run(kiosk, file: file, campaign: "Huge", dataLimit: Self.memoryBudget)
        let seconds = Date().timeIntervalSince(started)
        result.expectRefused(
            saying: "line 250002: more than 250,000 attendee rows (row 250,001 starts on this line)",
            "split the file into several imports",
            "nothing was imported"
        )
        #expect(try kiosk.status()["attendees"] as? Int == 0)
        #expect(try kiosk.muster(["campaigns"]).stdout.contains("No campaigns"))
        #expect(seconds < 60, "refusing a million rows took \(seconds) s")
        try kiosk.stop()
    }

    @Test("one 10 MB field: refused at the line where it starts within the memory budget; nothing imported")
    func tenMegabyteField() throws {
        let kiosk = try KioskHarness.started()
        let path = kiosk.directory.appendingPathComponent("field.csv").path
        var bytes = Data("email,first_name,notes\nada@example.com,Ada,fine\nbob@example.com,Bob,\"".utf8)
        bytes.append(Data(repeating: UInt8(ascii: "x"), count: 10_000_000))
        bytes.append(Data("\"\ncy@example.com,Cy,fine\n".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        // The file (10 MB) plus the process's own needs (under 16 MiB): the field is never copied.
        let result = try LimitedImport.run(kiosk, file: path, campaign: "Field", dataLimit: 64 * 1024 * 1024)
        result.expectRefused(
            saying: "line 3: a field longer than 65,536 bytes starts on this line",
            "nothing was imported"
        )
        #expect(try kiosk.status()["attendees"] as? Int == 0)
        try kiosk.stop()
    }

    @Test("a file over 64 MiB is refused from its size, before it is read")
    func oversizedFile() throws {
        let kiosk = try KioskHarness.started()
        // Sparse: 80 MiB on paper, no disk space or write time.
        let path = kiosk.directory.appendingPathComponent("huge.csv").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("email\n".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 80 * 1024 * 1024)
        try handle.close()
        // Far too little memory to hold the file: passing proves it was never read.
        let result = try LimitedImport.run(kiosk, file: path, campaign: "Huge", dataLimit: 32 * 1024 * 1024)
        result.expectRefused(
            saying:
                "the file is 80 MiB (83,886,080 bytes); the largest attendee list muster imports is 64 MiB (67,108,864 bytes); "
                + "split it into several files and import each one; nothing was imported"
        )
        #expect(try kiosk.status()["attendees"] as? Int == 0)
        try kiosk.stop()
    }

    @Test("a valid file near the field limit still imports, within the same memory budget")
    func validFileImports() throws {
        let kiosk = try KioskHarness.started()
        // 20,000 rows, one of them carrying a 65,536-byte value (exactly the parser's field limit) in a column the
        // import does not read.
        let file = try Self.writeRows(20_000, in: kiosk, name: "valid.csv", notesOnRow: 10_000)
        let result = try LimitedImport.run(kiosk, file: file, campaign: "Valid", dataLimit: Self.memoryBudget)
        #expect(!result.signaled, "muster died of signal \(result.status): \(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Imported 20000 attendee(s) into 'Valid' (new campaign)"), "\(result.stdout)")
        #expect(try kiosk.status()["attendees"] as? Int == 20_000)
        #expect(try kiosk.muster(["lock", "Valid", "--organizer-key", kiosk.organizerKey]).status == 0)
        let found = try kiosk.muster(["lookup", "p10000@example.com"])
        #expect(found.status == 0 && found.stdout.contains("First10000"), "\(found.stdout) \(found.stderr)")
        try kiosk.stop()
    }

    @Test(
        "600 rows with a field short in characters and long in bytes: refused whole with its line; nothing imported",
        arguments: [
            // 1,000 flag emoji in both names on line 550 (8,000 bytes each): once SIGILL after 499 rows.
            (550, "first_name", HostileAttendeeFile.flagNames(rows: 600, line: 550)),
            // 1,000 letters of 8 bytes each in the company on line 321: once stopped with no line after 499 rows.
            (321, "company", HostileAttendeeFile.longField(rows: 600, line: 321)),
        ]
    )
    func hostileRowIsRefusedWhole(line: Int, column: String, text: String) throws {
        let kiosk = try KioskHarness.started()
        let honest = kiosk.directory.appendingPathComponent("honest.csv").path
        try "email,first_name\nada@example.com,Ada\ngrace@example.com,Grace\n"
            .write(toFile: honest, atomically: true, encoding: .utf8)
        let first = try kiosk.muster(["import", honest, "--campaign", "Live", "--organizer-key", kiosk.organizerKey])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try kiosk.status()["attendees"] as? Int == 2)

        // The very bytes the parser and client tests refuse (issue 13).
        let path = kiosk.directory.appendingPathComponent("hostile.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try LimitedImport.run(kiosk, file: path, campaign: "Live", dataLimit: Self.memoryBudget)
        result.expectRefused(
            saying: "line \(line): the value in column \"\(column)\" is 8,000 bytes of UTF-8",
            "nothing was imported"
        )
        #expect(try kiosk.status()["attendees"] as? Int == 2, "none of the 599 good rows was applied")
        try kiosk.stop()
    }

    /// `email,first_name,last_name,ticket,notes` and `count` distinct attendees, written in chunks so the test
    /// itself never holds the whole file; `notesOnRow` gets a notes value of exactly 64 KiB.
    static func writeRows(_ count: Int, in kiosk: KioskHarness, name: String, notesOnRow: Int? = nil) throws -> String {
        let path = kiosk.directory.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var chunk = "email,first_name,last_name,ticket,notes\n"
        chunk.reserveCapacity(1 << 20)
        for index in 0..<count {
            let notes = index == notesOnRow ? "\"" + String(repeating: "n", count: 65_536) + "\"" : ""
            chunk += "p\(index)@example.com,First\(index),Last\(index),T-\(index),\(notes)\n"
            if chunk.utf8.count > 900_000 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: Data(chunk.utf8))
        return path
    }
}

extension LimitedImport.Outcome {
    /// Expects a refusal: muster ran to its end (no signal, as out of memory would be), exited 1, and
    /// said each of `sentences`.
    func expectRefused(saying sentences: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            !signaled,
            "muster died of signal \(status) (out of memory?): \(stderr)",
            sourceLocation: sourceLocation
        )
        #expect(status == 1, "\(stderr)", sourceLocation: sourceLocation)
        for sentence in sentences { #expect(stderr.contains(sentence), "\(stderr)", sourceLocation: sourceLocation) }
    }
}

/// Runs `muster import` under `prlimit --data=…`, so a memory blow-up shows as a crash (death by signal when an
/// allocation fails) instead of passing on a large machine. RLIMIT_DATA bounds the heap and private anonymous
/// mappings on Linux 4.7 and later.
enum LimitedImport {
    struct Outcome {
        let status: Int32
        /// Terminated by a signal; `status` is then the signal number.
        let signaled: Bool
        let stdout: String
        let stderr: String
    }

    static func run(_ kiosk: KioskHarness, file: String, campaign: String, dataLimit: Int) throws -> Outcome {
        let (result, signaled) = try runProcess(
            URL(fileURLWithPath: "/usr/bin/prlimit"),
            [
                "--data=\(dataLimit)", "--", kiosk.binaries.appendingPathComponent("muster").path,
                "import", file, "--campaign", campaign, "--organizer-key", kiosk.organizerKey,
            ],
            environment: kiosk.runner.environment()
        )
        return Outcome(status: result.status, signaled: signaled, stdout: result.stdout, stderr: result.stderr)
    }
}
