/// Compares the history with every replica: acknowledged writes lost, writes never submitted
/// (phantoms), digests, integrity, and where the operations of unknown outcome ended.
///
/// Counting, not matching: for each (kind, kiosk, attendee) the replica must hold at least as many
/// presence records as the history has acknowledged writes, and at most that plus the unknown
/// ones. Refused and failed operations write nothing, so a record they would explain is a phantom.
struct Checker {
    struct Expected {
        var acknowledged = 0
        var unknown = 0
    }

    let operations: [Operation]

    /// What each (kind, kiosk, attendee) should have, from the history.
    var expected: [ReplicaSnapshot.PresenceKey: Expected] {
        var expected: [ReplicaSnapshot.PresenceKey: Expected] = [:]
        for operation in operations where operation.kind != .lock {
            let key = ReplicaSnapshot.PresenceKey(
                kind: operation.kind,
                kiosk: "k\(operation.kiosk)",
                email: operation.subject.lowercased()
            )
            switch operation.outcome {
            case .ok: expected[key, default: Expected()].acknowledged += 1
            case .unknown: expected[key, default: Expected()].unknown += 1
            case .refused, .failed: expected[key, default: Expected()].acknowledged += 0
            }
        }
        return expected
    }

    struct ReplicaVerdict {
        var lost = 0
        var phantom = 0
        var unknownApplied = 0
        var problems: [String] = []
    }

    func verdict(_ snapshot: ReplicaSnapshot) -> ReplicaVerdict {
        var verdict = ReplicaVerdict()
        let expected = self.expected
        for (key, want) in expected.sorted(by: { $0.key < $1.key }) {
            let have = snapshot.presence[key, default: 0]
            if have < want.acknowledged {
                verdict.lost += want.acknowledged - have
                verdict.problems.append(
                    "k\(snapshot.kiosk): lost \(key.kind.rawValue) of \(key.email) at \(key.kiosk) (acked \(want.acknowledged), present \(have))"
                )
            }
            if have > want.acknowledged + want.unknown {
                verdict.phantom += have - want.acknowledged - want.unknown
                verdict.problems.append(
                    "k\(snapshot.kiosk): phantom \(key.kind.rawValue) of \(key.email) at \(key.kiosk) (acked \(want.acknowledged), unknown \(want.unknown), present \(have))"
                )
            }
            verdict.unknownApplied += min(want.unknown, max(0, have - want.acknowledged))
        }
        for (key, have) in snapshot.presence.sorted(by: { $0.key < $1.key }) where expected[key] == nil {
            verdict.phantom += have
            verdict.problems.append(
                "k\(snapshot.kiosk): phantom \(key.kind.rawValue) of \(key.email) at \(key.kiosk): never submitted"
            )
        }
        let registered = Set(
            operations.filter { $0.kind == .register && ($0.outcome == .ok || $0.outcome == .unknown) }
                .map { $0.subject.lowercased() }
        )
        for email in snapshot.walkIns.sorted() where !registered.contains(email) {
            verdict.phantom += 1
            verdict.problems.append("k\(snapshot.kiosk): phantom walk-in \(email)")
        }
        for operation in operations where operation.kind == .register && operation.outcome == .ok {
            if !snapshot.walkIns.contains(operation.subject.lowercased()) {
                verdict.lost += 1
                verdict.problems.append("k\(snapshot.kiosk): lost walk-in \(operation.subject) (op \(operation.id))")
            }
        }
        let locks = operations.filter { $0.kind == .lock }
        let acknowledged = locks.filter { $0.outcome == .ok }.compactMap(\.lockVersion).max() ?? 0
        let possible = locks.filter { $0.outcome == .ok || $0.outcome == .unknown }.compactMap(\.lockVersion).max() ?? 0
        let final = snapshot.lockVersion ?? 0
        if final < acknowledged {
            verdict.lost += 1
            verdict.problems.append("k\(snapshot.kiosk): lock v\(final), but v\(acknowledged) was acknowledged")
        }
        if final > possible {
            verdict.phantom += 1
            verdict.problems.append("k\(snapshot.kiosk): lock v\(final), but no more than v\(possible) was submitted")
        }
        return verdict
    }

    /// The report over every replica: the worst replica's lost and phantom counts.
    func report(scenario: String, snapshots: [ReplicaSnapshot], unreadable: [String]) -> CheckerReport {
        var report = CheckerReport(scenario: scenario)
        for operation in operations where operation.scenario == scenario {
            report.operations[operation.outcome, default: 0] += 1
        }
        report.replicas = snapshots.count + unreadable.count
        report.problems += unreadable
        var digests: [String: Int] = [:]
        for snapshot in snapshots {
            digests[snapshot.digest, default: 0] += 1
            if snapshot.integrity == "ok" {
                report.integrityOK += 1
            } else {
                report.problems.append("k\(snapshot.kiosk): integrity_check: \(snapshot.integrity)")
            }
            let verdict = verdict(snapshot)
            report.lost = max(report.lost, verdict.lost)
            report.phantom = max(report.phantom, verdict.phantom)
            report.unknownApplied = max(report.unknownApplied, verdict.unknownApplied)
            report.problems += verdict.problems.prefix(20)
        }
        report.digestsEqual = digests.values.max() ?? 0
        report.unknownTotal = operations.filter { $0.outcome == .unknown && $0.kind != .lock }.count
        return report
    }
}
