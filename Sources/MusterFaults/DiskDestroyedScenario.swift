import Foundation

/// A kiosk's disk lost right after it acknowledged a write (issue 37, `ack_copies`): the workload runs
/// on every kiosk; each round registers a walk-in on the last kiosk, SIGKILLs its musterd the moment
/// the answer arrives, deletes its state directory (key, replica, everything) and enrolls a new box
/// in its place, which starts empty and takes the venue back from its peers. The checker then asks
/// of every replica, the new one included, what it asks after any fault: nothing acknowledged lost.
/// With `ack_copies = 1` the write acknowledged last lived only on the dead disk.
struct DiskDestroyedScenario {
    static let name = "disk-destroyed"

    let venue: FaultsVenue
    let workload: Workload
    let rounds: Int
    /// Seconds the workload runs before the first round, between rounds and after the last.
    let seconds: Double
    var lab: LabControl { venue.lab }

    func run(say: (String) -> Void) throws -> CheckerReport {
        let kiosk = lab.kiosks
        workload.start(scenario: Self.name)
        var gaps: [UInt64] = []
        var problems: [String] = []
        for round in 1...rounds {
            usleep(UInt32(seconds * 1_000_000))
            let email = "destroyed-\(round)-\(workload.log.newID())@walkin.example"
            let acknowledged = workload.perform(.register, kiosk: kiosk, email: email, scenario: Self.name)
            let answeredAt = LabControl.nowMillis()
            let killed = lab.signal(SIGKILL, [kiosk])
            gaps.append(LabControl.nowMillis() - answeredAt)
            if acknowledged.outcome != .ok {
                problems.append(
                    "round \(round): the walk-in on k\(kiosk) was not acknowledged (\(acknowledged.detail))"
                )
            }
            if killed != [kiosk] { problems.append("round \(round): k\(kiosk)'s musterd was not running to kill") }
            try lab.must(["destroy", "\(kiosk)"])
            say("  nemesis: k\(kiosk) killed \(gaps.last ?? 0) ms after acknowledging \(email); state destroyed")
            try lab.must(["start", "\(kiosk)"])
        }
        usleep(UInt32(seconds * 1_000_000))
        workload.stop()
        let converged = try venue.healAndConverge(timeout: 120)
        var report = venue.check(
            scenario: Self.name,
            operations: workload.log.operations,
            convergedSeconds: converged
        )
        report.figures.append(
            "\(rounds) disks of k\(kiosk) destroyed, each \(gaps.max() ?? 0) ms or less after an acknowledged walk-in"
        )
        report.expectationsFailed += problems
        return report
    }
}
