import Foundation
import MusterCore
import MusterRules
import MusterStore

/// Revocations while the workload runs and the network splits (RELIABILITY.md, "revocations").
///
/// 1. A stolen organizer device (added with `muster venue add-device`) revokes two kiosks through
///    kiosk 1: first one online, then one cut off from the others at that moment (what it
///    acknowledges meanwhile exists only on it until the cut heals). Both must stop with
///    `state/STOPPED` and keep every file. The organizer key
///    then revokes the device with watermark 0, and the stopped kiosks are started again by hand
///    (marker deleted, musterd started).
/// 2. The organizer key on both sides of a split (two key files, as on two laptops): side A (kiosk 1
///    and the victim) locks first, side B revokes the victim later; then the split heals, and side
///    A's branch must win everywhere: the victim never stops.
///
/// Besides the checker's counts over the whole history (every acknowledged operation on every
/// replica, the stopped kiosks' included; no phantom; equal digests), it requires that no kiosk
/// wiped itself (no `state/REVOKED`, replica and key present, no "wiped" in its log), that every
/// daemon runs at the end, that no kiosk is revoked in any replica, and that the device is.
struct RevocationScenario {
    let venue: FaultsVenue
    let workload: Workload
    let seed: UInt64
    /// Seconds each step holds while the workload runs.
    let hold: Double
    /// Whether step 2 (the organizer key on both sides of a split) runs.
    let fork: Bool
    let name = "revocations"
    var lab: LabControl { venue.lab }

    private func pause(_ seconds: Double) { usleep(UInt32(seconds * 1_000_000)) }

    private func exists(_ kiosk: Int, _ file: String) -> Bool {
        FileManager.default.fileExists(atPath: lab.kioskDirectory(kiosk) + "/state/" + file)
    }

    private func marker(_ kiosk: Int, _ file: String) -> String {
        let text = (try? String(contentsOfFile: lab.kioskDirectory(kiosk) + "/state/" + file, encoding: .utf8)) ?? ""
        return String(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(300))
    }

    /// `muster ARGS` in kiosk I's namespace; nil when it succeeded, else its output's last lines.
    private func muster(on kiosk: Int, _ arguments: [String]) -> String? {
        let result = lab.run(["exec", "\(kiosk)", "muster"] + arguments)
        guard result.status != 0 else { return nil }
        return "muster \(arguments.prefix(2).joined(separator: " ")) on k\(kiosk) exited \(result.status): "
            + result.output.split(separator: "\n").suffix(2).joined(separator: " | ")
    }

    /// The fingerprint kiosk `kiosk`'s own `muster status` shows, as the person revoking it reads it off
    /// its screen: its name alone is ambiguous once an earlier scenario enrolled a new box under it
    /// (disk-destroyed). Nil when the status cannot be read; the name is tried then.
    private func fingerprint(of kiosk: Int) -> String? {
        let result = lab.run(["exec", "\(kiosk)", "muster", "status", "--json"])
        guard result.status == 0, let start = result.output.firstIndex(of: "{"),
            let end = result.output.lastIndex(of: "}"),
            let object = try? JSONSerialization.jsonObject(with: Data(result.output[start...end].utf8)),
            let fingerprint = (object as? [String: Any])?["fingerprint"] as? String
        else { return nil }
        return fingerprint
    }

    func run(say: (String) -> Void) throws -> CheckerReport {
        guard lab.kiosks >= 3 else { throw FaultsError("the revocations scenario needs at least 3 kiosks") }
        var failed: [String] = []
        var random = SplitMix64(seed: seed ^ 0x5245_564F_4B45)
        var others = Array(lab.all.dropFirst())
        let cutOff = others.remove(at: Int(random.next() % UInt64(others.count)))
        let online = others.remove(at: Int(random.next() % UInt64(others.count)))
        let targets = [cutOff, online].sorted()
        // The fork's victim shares side A with kiosk 1 (where the lock changer signs with the first key file).
        let victim = 2 + Int(random.next() % UInt64(lab.kiosks - 1))
        let sideA = [1, victim].sorted()
        let sideB = lab.all.filter { !sideA.contains($0) }

        // The thief's laptop: a device key of the organizer's, added before the event.
        let thief = lab.directory + "/laptop-thief"
        let laptopB = lab.directory + "/laptop-B"
        for directory in [thief, laptopB] { try? FileManager.default.removeItem(atPath: directory) }
        if let error = muster(
            on: 1,
            ["venue", "add-device", "--organizer-key", lab.organizerKey, "--name", "Laptop", "--out", thief]
        ) {
            throw FaultsError("the revocations scenario cannot add a device: \(error)")
        }

        workload.start(scenario: name)
        pause(hold)

        // 1. The stolen device revokes an online kiosk (its first delta: every kiosk online learns the
        // device's certificate), then one cut off from the others since `hold` seconds.
        var stopSeconds: [Int: Double] = [:]
        var revokedAt = LabControl.nowMillis()
        var cutAt = revokedAt
        for target in [online, cutOff] {
            if target == cutOff {
                try lab.must(["cut", "\(cutOff)"])
                cutAt = LabControl.nowMillis()
                say("  nemesis: isolate k\(cutOff)")
                pause(hold)
            }
            let named = fingerprint(of: target) ?? "k\(target)"
            if let error = muster(on: 1, ["revoke", named, "--organizer-key", thief + "/organizer.key"]) {
                failed.append("the device's revocation of k\(target): \(error)")
            }
            if target == online { revokedAt = LabControl.nowMillis() }
            say("  device revoked k\(target)")
            if target == cutOff {
                pause(hold)
                try lab.must(["heal", "\(cutOff)"])
            }
            let waited = LabControl.time.uptime
            if LabControl.waitUntil(seconds: 20, { lab.daemonPID(target) == nil }) {
                stopSeconds[target] = LabControl.seconds(since: waited)
            }
        }
        for target in targets {
            if stopSeconds[target] == nil {
                failed.append("k\(target) still serves 20 s after the device revoked it")
            } else if !exists(target, "STOPPED") {
                failed.append(
                    "k\(target) exited after the device revoked it, but left no STOPPED marker"
                        + (exists(target, "REVOKED") ? " (REVOKED: \(marker(target, "REVOKED")))" : "")
                )
            }
        }
        let stops = targets.map { target in
            "k\(target) " + (stopSeconds[target].map { String(format: "after %.1f s", $0) } ?? "not")
        }
        say("  stopped: \(stops.joined(separator: ", "))")

        // The organizer revokes the device, nothing it signed counting; the stopped kiosks are started again.
        let revokeDevice = workload.asOrganizer {
            muster(on: 1, ["revoke", "Laptop", "--watermark", "0", "--organizer-key", lab.organizerKey])
        }
        if let error = revokeDevice { failed.append("the organizer's revocation of the device: \(error)") }
        let deviceRevokedAt = LabControl.nowMillis()
        for target in targets where stopSeconds[target] != nil && exists(target, "STOPPED") {
            try? FileManager.default.removeItem(atPath: lab.kioskDirectory(target) + "/state/STOPPED")
            let result = lab.start(target)
            if result.status != 0 {
                failed.append(
                    "k\(target) did not start again: \(result.output.split(separator: "\n").suffix(2).joined(separator: " | "))"
                )
            }
        }
        let restartedAt = LabControl.nowMillis()
        say("  organizer revoked the device; restarted the stopped kiosks")
        pause(hold)

        // 2. The organizer key on both sides of a split: A locks first, B revokes A's victim later.
        if fork {
            try FileManager.default.createDirectory(atPath: laptopB, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: lab.organizerKey, toPath: laptopB + "/organizer.key")
            try FileManager.default.copyItem(
                atPath: lab.directory + "/venue/venue.toml",
                toPath: laptopB + "/venue.toml"
            )
            let split = Fault.split(sideA, sideB)
            _ = try split.apply(lab)
            say("  nemesis: \(split)")
            pause(1)
            let lock = workload.changeLock()
            if lock.outcome != .ok { failed.append("side A's lock during the split: \(lock.outcome) \(lock.detail)") }
            pause(0.5)
            // On a side-B kiosk that runs (one stopped again by a revocation would refuse the command).
            let signer = sideB.first { lab.daemonPID($0) != nil } ?? sideB[0]
            if let error = muster(
                on: signer,
                ["revoke", fingerprint(of: victim) ?? "k\(victim)", "--organizer-key", laptopB + "/organizer.key"]
            ) {
                failed.append("side B's revocation of k\(victim): \(error)")
            }
            say("  side A (k1) locked v\(lock.lockVersion ?? 0), then side B (k\(signer)) revoked k\(victim)")
            pause(hold)
            try split.heal(lab)
            pause(hold)
        }
        workload.stop()

        // Every daemon must still run; a stopped one is noted, then started so the lab converges.
        for kiosk in lab.all where lab.daemonPID(kiosk) == nil {
            if exists(kiosk, "STOPPED") {
                failed.append("k\(kiosk) stopped: \(marker(kiosk, "STOPPED"))")
                try? FileManager.default.removeItem(atPath: lab.kioskDirectory(kiosk) + "/state/STOPPED")
            } else if !exists(kiosk, "REVOKED") {
                failed.append("k\(kiosk)'s musterd is not running")
            }
        }
        var converged: Double?
        do {
            converged = try venue.healAndConverge(timeout: 120)
        } catch {
            failed.append("heal: \(Nemesis.brief(error))")
        }
        var report = venue.check(scenario: name, operations: workload.log.operations, convergedSeconds: converged)
        failed += wipes() + rosterProblems()

        let ours = workload.log.operations(in: name)
        let byTargets = ours.filter { targets.contains($0.kiosk) && $0.kind != .lock }
        let ackedCutOff = ours.filter {
            $0.kiosk == cutOff && $0.outcome == .ok && $0.startMillis > cutAt && $0.startMillis < deviceRevokedAt
                && $0.kind != .lock
        }.count
        let whileStopped = byTargets.filter { $0.startMillis > revokedAt && $0.endMillis < deviceRevokedAt }
        let stoppedAcked = whileStopped.filter { $0.outcome == .ok }.count
        let afterRestart = byTargets.filter { $0.startMillis > restartedAt && $0.outcome == .ok }.count
        report.figures.append(
            "device revoked k\(online), then k\(cutOff) (cut off: \(ackedCutOff) acked there); "
                + "\(byTargets.filter { $0.outcome == .ok }.count) acked by them in all, "
                + "\(whileStopped.count - stoppedAcked) refused/failed and \(stoppedAcked) acked while revoked, "
                + "\(afterRestart) acked after the restart"
        )
        if fork {
            report.figures.append(
                "fork \(sideA.map { "k\($0)" }.joined(separator: ","))|\(sideB.map { "k\($0)" }.joined(separator: ",")), k\(victim) revoked on the losing side"
            )
        }
        report.expectationsFailed += failed
        return report
    }

    /// Any kiosk that wiped itself: a REVOKED marker, a missing replica or key, "wiped" in its log.
    private func wipes() -> [String] {
        var problems: [String] = []
        for kiosk in lab.all {
            if exists(kiosk, "REVOKED") { problems.append("k\(kiosk) wiped itself: \(marker(kiosk, "REVOKED"))") }
            for file in ["replica.sqlite", "kiosk.key"] where !exists(kiosk, file) {
                problems.append("k\(kiosk) has no \(file)")
            }
            let log = (try? String(contentsOfFile: lab.logPath(kiosk), encoding: .utf8)) ?? ""
            if log.contains("wiped the attendee data") { problems.append("k\(kiosk)'s log says it wiped its data") }
        }
        return problems
    }

    /// In every replica: no kiosk revoked (the device's revocations taken back, side B's superseded),
    /// and the device revoked.
    private func rosterProblems() -> [String] {
        var problems: [String] = []
        for kiosk in lab.all {
            guard let replica = try? Replica.openReadOnly(path: lab.replicaPath(kiosk), policy: venue.policy),
                let roster = try? replica.roster()
            else {
                problems.append("k\(kiosk): cannot read the roster")
                continue
            }
            try? replica.close()
            let revoked = roster.filter { $0.role == .kiosk && $0.revokedWatermark != nil }.map(\.name)
            if !revoked.isEmpty {
                problems.append("k\(kiosk)'s replica holds \(revoked.sorted().joined(separator: ", ")) revoked")
            }
            if !roster.contains(where: { $0.name == "Laptop" && $0.revokedWatermark != nil }) {
                problems.append("k\(kiosk)'s replica does not hold the device revoked")
            }
        }
        return problems
    }
}
