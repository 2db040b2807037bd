import Foundation

/// The whole run: set up, each scenario under the nemesis with the workload running, heal, wait for
/// equal digests, check; then the full disk and the crash points. One line per scenario.
struct Campaign {
    let lab: LabControl
    let schedule: Schedule
    let seed: UInt64
    let attendees: Int
    let intervalMillis: UInt32
    /// Scenario names to run (nil: all).
    let only: Set<String>?

    private func selected(_ name: String) -> Bool { only?.contains(name) ?? true }

    func run() throws -> [CheckerReport] {
        let say: (String) -> Void = { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        let started = LabControl.time.uptime
        let selfTest = CheckerSelfTest.run()
        guard selfTest.isEmpty else {
            throw FaultsError("the checker fails its self-test: \(selfTest.joined(separator: "; "))")
        }
        say(
            "faults: checker self-test passed (\(CheckerSelfTest.cases.count) synthetic histories: losses, phantoms, unknowns)"
        )
        let venue = try FaultsVenue.setUp(lab: lab, count: attendees)
        let log = try OperationLog(path: lab.directory + "/history.jsonl")
        let workload = Workload(
            lab: lab,
            log: log,
            attendees: venue.attendees,
            intervalMillis: intervalMillis,
            seed: seed
        )
        workload.changeLock(scenario: "setup")
        guard venue.converge(timeout: 120) != nil else {
            throw FaultsError("the lab did not converge after the import")
        }
        say(
            String(
                format: "faults: %d kiosks, %d attendees, history in %@ (set-up %.0f s)",
                lab.kiosks,
                attendees,
                log.path,
                LabControl.seconds(since: started)
            )
        )
        var reports: [CheckerReport] = []
        var nemesis = Nemesis(lab: lab, seed: seed)
        for scenario in schedule.scenarios where selected(scenario.name) {
            let killsBefore = nemesis.kills
            let errorsBefore = nemesis.errors.count
            let faultsBefore = nemesis.applied.count
            workload.start(scenario: scenario.name)
            do {
                try nemesis.run(scenario, say: { _ in })
            } catch {
                workload.stop()
                throw error
            }
            workload.stop()
            let converged = try venue.healAndConverge(timeout: 120)
            var report = venue.check(scenario: scenario.name, operations: log.operations, convergedSeconds: converged)
            report.figures.append("\(nemesis.applied.count - faultsBefore) faults")
            report.figures.append("\(nemesis.kills - killsBefore) kills")
            report.expectationsFailed += nemesis.errors[errorsBefore...]
            finish(report, into: &reports, say: say)
        }
        for headroom in schedule.disks {
            let disk = DiskFullScenario(
                venue: venue,
                workload: workload,
                seconds: schedule.diskSeconds,
                headroomKiB: headroom
            )
            guard selected(disk.name) else { continue }
            finish(try disk.run(say: { _ in }), into: &reports, say: say)
        }
        if schedule.destroyRounds > 0, selected(DiskDestroyedScenario.name) {
            let destroyed = DiskDestroyedScenario(
                venue: venue,
                workload: workload,
                rounds: schedule.destroyRounds,
                seconds: 2
            )
            finish(try destroyed.run(say: { _ in }), into: &reports, say: say)
        }
        if selected("crash-points") {
            let crashes = CrashPointCampaign(venue: venue, workload: workload, rounds: schedule.crashRounds)
            finish(try crashes.run(say: { _ in }), into: &reports, say: say)
        }
        // Last: revocations rotate the network key and restart kiosks by hand, and a kiosk they
        // broke must not fail the scenarios above for them.
        if let hold = schedule.revocationHold, selected("revocations") {
            let revocations = RevocationScenario(
                venue: venue,
                workload: workload,
                seed: seed,
                hold: hold,
                fork: schedule.revocationFork
            )
            finish(try revocations.run(say: say), into: &reports, say: say)
        }
        let total = log.operations.count
        say(
            String(
                format: "faults: %@ operations in %.0f s, %d/%d scenarios passed; nemesis log: %@",
                total.formatted(),
                LabControl.seconds(since: started),
                reports.filter(\.passed).count,
                reports.count,
                lab.directory + "/nemesis.log"
            )
        )
        try nemesis.applied.joined(separator: "\n").write(
            toFile: lab.directory + "/nemesis.log",
            atomically: true,
            encoding: .utf8
        )
        return reports
    }

    private func finish(_ report: CheckerReport, into reports: inout [CheckerReport], say: (String) -> Void) {
        reports.append(report)
        say(report.line)
        if !report.passed {
            for problem in report.problems.prefix(30) { say("    \(problem)") }
        }
    }
}
