import Foundation
import MusterControl
import MusterRules

/// The venue the campaign runs on: a lab of kiosks, a generated attendee list imported by the
/// organizer through kiosk 1, and the campaign locked.
struct FaultsVenue {
    static let campaign = "Faults"

    let lab: LabControl
    let attendees: [String]
    let policy: VenuePolicy

    /// Brings the lab up and imports `count` attendees; the lock is the workload's first operation.
    static func setUp(lab: LabControl, count: Int) throws -> FaultsVenue {
        try lab.must(["up", "\(lab.kiosks)"])
        let emails = (1...count).map { String(format: "a%05d@faults.example", $0) }
        var csv = "email,first_name,last_name,company,ticket\n"
        for (index, email) in emails.enumerated() {
            csv +=
                "\(email),First\(index + 1),Last\(index + 1),Company \(index % 40),FLT-\(String(format: "%05d", index + 1))\n"
        }
        let file = lab.directory + "/attendees.csv"
        try csv.write(toFile: file, atomically: true, encoding: .utf8)
        try lab.must([
            "exec", "1", "muster", "import", file, "--campaign", campaign, "--organizer-key", lab.organizerKey,
        ])
        let config = try KioskConfig.load(path: lab.configPath(1))
        let policy = try VenueFile.load(path: config.venue).policy
        return FaultsVenue(lab: lab, attendees: emails, policy: policy)
    }

    /// Seconds from `start` (the moment the heal began) until every replica has the same digest,
    /// polled every 100 ms; nil if not within `timeout`.
    func converge(timeout: Double, since start: Duration = LabControl.time.uptime) -> Double? {
        var converged = false
        while LabControl.seconds(since: start) < timeout {
            let digests = lab.all.map { ReplicaSnapshot.fingerprint(path: lab.replicaPath($0), policy: policy) }
            if digests.allSatisfy({ $0 != nil }), Set(digests).count == 1 {
                converged = true
                break
            }
            usleep(100_000)
        }
        return converged ? LabControl.seconds(since: start) : nil
    }

    /// Heals every fault on the lab and returns the seconds until it converged, counted from the heal.
    func healAndConverge(timeout: Double) throws -> Double? {
        let start = LabControl.time.uptime
        try Nemesis.healAll(lab)
        return converge(timeout: timeout, since: start)
    }

    /// Reads every replica and runs the checker over the whole history.
    func check(scenario: String, operations: [Operation], convergedSeconds: Double?) -> CheckerReport {
        var snapshots: [ReplicaSnapshot] = []
        var unreadable: [String] = []
        for kiosk in lab.all {
            do {
                snapshots.append(try ReplicaSnapshot.read(kiosk: kiosk, path: lab.replicaPath(kiosk), policy: policy))
            } catch {
                unreadable.append("k\(kiosk): cannot read the replica: \(error)")
            }
        }
        var report = Checker(operations: operations).report(
            scenario: scenario,
            snapshots: snapshots,
            unreadable: unreadable
        )
        report.convergedSeconds = convergedSeconds
        return report
    }
}
