import Foundation
import MusterCore
import MusterRules
import MusterStore

/// Kills musterd at each step of ingesting a received batch and of committing a local write
/// (`MUSTER_CRASH_AT`, test builds only), restarts it, and checks that the replica is whole and
/// the interrupted write is all there or not there at all.
struct CrashPointCampaign {
    let venue: FaultsVenue
    let workload: Workload
    let rounds: Int
    var lab: LabControl { venue.lab }

    func run(say: (String) -> Void) throws -> CheckerReport {
        let name = "crash-points"
        workload.currentScenario = name
        let kiosk = lab.kiosks
        var hit = 0
        var tried = 0
        var present = 0
        var absent = 0
        var failures: [String] = []
        for round in 1...rounds {
            for point in CrashPoint.allCases {
                // Round 1 crashes at the first hit; later rounds further into a batch or a run of writes.
                let count = round == 1 ? (point == .ingestStored ? 2 : 1) : 1 + round * 2
                tried += 1
                try lab.must(["stop", "\(kiosk)"])
                let logStart = Self.size(lab.logPath(kiosk))
                var interrupted: Operation?
                if point.rawValue.hasPrefix("ingest.") {
                    // Writes the stopped kiosk lacks, so that it receives batches when it comes back.
                    for _ in 0..<(6 + count * 4) {
                        workload.perform(
                            .register,
                            kiosk: 1,
                            email: "crash-\(workload.log.newID())@walkin.example",
                            scenario: name
                        )
                    }
                    lab.start(kiosk, environment: ["MUSTER_CRASH_AT": "\(point.rawValue):\(count)"])
                } else {
                    let result = lab.start(kiosk, environment: ["MUSTER_CRASH_AT": "\(point.rawValue):\(count)"])
                    guard result.status == 0 else { throw FaultsError("k\(kiosk) did not start: \(result.output)") }
                    for _ in 0..<count {
                        interrupted = workload.perform(
                            .register,
                            kiosk: kiosk,
                            email: "crash-\(workload.log.newID())@walkin.example",
                            scenario: name
                        )
                    }
                }
                // The N-th received batch: kiosk 1 keeps writing (each write is pushed as a batch of
                // its own) until kiosk 5 dies at the point, or 20 s pass.
                let died = LabControl.waitUntil(seconds: 20, pollMillis: 200) {
                    guard lab.daemonPID(kiosk) != nil else { return true }
                    if point.rawValue.hasPrefix("ingest.") {
                        workload.perform(
                            .register,
                            kiosk: 1,
                            email: "crash-\(workload.log.newID())@walkin.example",
                            scenario: name
                        )
                    }
                    return false
                }
                let log = Self.tail(lab.logPath(kiosk), from: logStart)
                if died, log.contains("CRASH POINT \(point.rawValue)") {
                    hit += 1
                } else {
                    failures.append("\(point.rawValue):\(count) not reached (died: \(died))")
                    _ = lab.signal(SIGKILL, [kiosk])
                    _ = LabControl.waitUntil(seconds: 5) { lab.daemonPID(kiosk) == nil }
                }
                let restart = lab.start(kiosk)
                guard restart.status == 0 else {
                    failures.append("\(point.rawValue): k\(kiosk) did not restart: \(restart.output)")
                    continue
                }
                let snapshot = try ReplicaSnapshot.read(
                    kiosk: kiosk,
                    path: lab.replicaPath(kiosk),
                    policy: venue.policy
                )
                if snapshot.integrity != "ok" {
                    failures.append("\(point.rawValue): integrity_check \(snapshot.integrity)")
                }
                if let op = interrupted {
                    let key = ReplicaSnapshot.PresenceKey(kind: .register, kiosk: "k\(kiosk)", email: op.subject)
                    let rows = snapshot.presence[key, default: 0]
                    let walkIn = snapshot.walkIns.contains(op.subject)
                    switch (rows, walkIn) {
                    case (0, false): absent += 1
                    case (1, true): present += 1
                    default:
                        failures.append(
                            "\(point.rawValue): interrupted registration half there (\(rows) presence, walk-in \(walkIn))"
                        )
                    }
                    if op.outcome == .ok, rows == 0 {
                        failures.append("\(point.rawValue): acknowledged registration lost")
                    }
                }
                say(
                    "  crash point \(point.rawValue):\(count): \(hit == tried ? "hit" : "see failures"), restarted, integrity \(snapshot.integrity)"
                )
            }
        }
        let converged = try venue.healAndConverge(timeout: 90)
        var report = venue.check(scenario: name, operations: workload.log.operations, convergedSeconds: converged)
        report.figures.append(
            "\(hit)/\(tried) crash points hit, interrupted local writes \(present) present/\(absent) absent/0 half"
        )
        report.expectationsFailed += failures
        return report
    }

    static func size(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? UInt64) ?? 0
    }

    static func tail(_ path: String, from offset: UInt64) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        try? handle.seek(toOffset: offset)
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }
}
