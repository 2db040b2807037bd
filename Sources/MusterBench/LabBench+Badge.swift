import Foundation

extension LabBench {
    /// "Check-in latency unchanged" (issue 15): the kiosk screen's check-in (from the attendee's
    /// "y" to the "Welcome" line) on one real kiosk, first without a printer, then with the same
    /// kiosk printing every badge on `queue` (the screen asks for the badge after the check-in was
    /// acknowledged, and waits for it before the guestbook question, so the badges do print during
    /// the run). Part of `--only=badge` when `MUSTER_BENCH_CUPS_QUEUE` names a queue.
    static func badgeCheckIn(
        _ options: BenchOptions,
        report: inout BenchReport,
        queue: String,
        server: String?
    ) throws {
        let names = ["kiosk screen check-in p99, no printer", "kiosk screen check-in p99, printing badges"]
        let repo = FileManager.default.currentDirectoryPath
        let binaries =
            (Bundle.main.executablePath.map { ($0 as NSString).deletingLastPathComponent }) ?? ".build/release"
        if let reason = Lab.unavailableReason(repo: repo, binaries: binaries) {
            for name in names { report.skip(name, target: "—", reason: reason) }
            return
        }
        let lab = Lab(repo: repo, binaries: binaries)
        installSignalHandlers()
        defer { lab.down() }
        let count = options.quick ? 10 : 100
        // MUSTER_BENCH_BADGE_ORDER=printing-first runs the printing half first, to tell an effect
        // of printing from one of the order (the second half runs after a restart, on a replica
        // that holds the first half's check-ins).
        let printingFirst = ProcessInfo.processInfo.environment["MUSTER_BENCH_BADGE_ORDER"] == "printing-first"
        BenchCommand.progress(
            "badge check-in: one kiosk, \(count) attendees "
                + (printingFirst ? "printing badges, then \(count) without" : "without a printer, then \(count) with")
        )
        try lab.up(1)
        try lab.importAttendees(first: 0, rows: 2 * count, lock: true)
        // In the config file: musterd prints on it, and the screen reads it to ask for the badge.
        let plainConfig = try String(contentsOfFile: lab.config(1), encoding: .utf8)
        let serverLine = server.map { "cups_server = \"\($0)\"\n" } ?? ""
        let printingConfig = plainConfig + "\nprinter = \"\(queue)\"\n" + serverLine
        var plain: KioskScreenBench.Result?
        var printing: KioskScreenBench.Result?
        let order: [Bool] = printingFirst ? [true, false] : [false, true]
        for (half, withPrinter) in order.enumerated() {
            if half > 0 || withPrinter {
                try lab.stop(1)
                try (withPrinter ? printingConfig : plainConfig)
                    .write(toFile: lab.config(1), atomically: true, encoding: .utf8)
                try lab.start(1)
            }
            let sample = try KioskScreenBench.run(lab: lab, kiosk: 1, count: count, firstAttendee: half * count)
            if withPrinter { printing = sample } else { plain = sample }
        }
        guard let plain, let printing else { throw BenchError(.wrongResult, "badge check-in: a half did not run") }

        for (name, sample) in [("no printer", plain), ("printing badges", printing)] {
            report.latency(
                "kiosk screen check-in p50, \(name)",
                sample.checkIn.p50,
                limitName: "control ping p50",
                limit: sample.controlPing.p50,
                target: "—",
                met: true
            )
            report.latency(
                "kiosk screen check-in p99, \(name)",
                sample.checkIn.p99,
                limitName: "control ping p99",
                limit: sample.controlPing.p99,
                // "Unchanged" is judged across runs (BENCHMARKS.md): one run's difference is noise.
                target: "—",
                met: true
            )
        }
        // What the daemon logged for the badges: each one printed (CUPS reported it completed) or
        // why not; the screen waits for the answer before the next attendee.
        let log = (try? String(contentsOfFile: "\(lab.directory)/k1/musterd.log", encoding: .utf8)) ?? ""
        let lines = log.split(separator: "\n")
        let printed = lines.filter { $0.contains("badge printed") }.count
        let failed = lines.filter { $0.contains("badge not printed") }.count
        report.note(
            "badge check-in: \(count) attendees each way on one kiosk, \(printingFirst ? "printing half first" : "printing half second"); with the printer, musterd logged \(printed) badges printed and \(failed) not printed"
        )
    }
}
