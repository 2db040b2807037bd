public import MusterCore

/// Judges a run by the truths of DESIGN.md, whatever the protocol did on the way:
///
/// 1. every acknowledged check-in is on every live kiosk (else it is *lost* there);
/// 2. every live kiosk has the same digest once the network has healed;
/// 3. no kiosk holds a *phantom*: a delta no kiosk ever wrote, or different bytes under a written
///    delta's (author, seq);
/// 4. every live kiosk dials with the same network key (a rotation reached them all).
///
/// In a Byzantine run the lying kiosks are left out of all three (their replicas are theirs), a
/// delta a liar signed is no phantom, and the lies are judged too (``checkLies(_:into:)``).
public enum Checker {
    public static func check(_ history: History) -> CheckReport {
        var report = CheckReport()
        let liars = history.byzantine?.liarNames ?? []
        let kiosks = history.kiosks.filter { !liars.contains($0.name) && $0.name != history.revoked }
        let live = kiosks.filter(\.live)
        for kiosk in kiosks {
            var held: [DeltaRef: SignedDelta] = [:]
            for delta in kiosk.deltas {
                held[delta.ref] = delta
                if history.written[delta.ref] != delta,
                    !(history.byzantine?.versions[delta.ref]?.contains(delta) ?? false)
                {
                    report.phantoms += 1
                    report.note("\(kiosk.name) holds \(delta.ref), which no kiosk wrote")
                }
            }
            guard kiosk.live else { continue }
            for ref in history.setAside where held[ref] != nil {
                report.violations += 1
                report.note("\(kiosk.name) holds \(ref), which the organizer's revocation set aside")
            }
            // Other bytes under the ref (a phantom, counted above) do not hold the check-in either.
            for ref in history.acknowledged
            where !history.setAside.contains(ref) && (held[ref] == nil || held[ref] != history.written[ref]) {
                report.lost += 1
                report.lostCheckIns.insert(ref)
                report.note("\(kiosk.name) misses acknowledged \(ref)")
            }
        }
        if let byzantine = history.byzantine { checkLies(byzantine, kiosks: live, into: &report) }
        if let doors = history.doors { checkDoors(doors, into: &report) }
        let digests = Set(live.map(\.digest))
        report.digestsEqual = digests.count <= 1
        if !report.digestsEqual {
            let groups = Dictionary(grouping: live, by: \.digest).values.map { $0.map(\.name) }.sorted {
                $0.count > $1.count
            }
            report.note(
                "\(digests.count) different digests among \(live.count) live kiosks: \(groups.map { $0.prefix(5).joined(separator: ",") })"
            )
        }
        let keys = Set(live.map(\.networkKey))
        if keys.count > 1 {
            report.violations += 1
            let groups = Dictionary(grouping: live, by: \.networkKey).map { "\($0.key.prefix(12)): \($0.value.count)" }
            report.note("live kiosks on different network keys: \(groups.sorted())")
        }
        return report
    }
}

/// The checker's verdict on one run.
public struct CheckReport: Sendable, Equatable {
    /// (live kiosk, acknowledged check-in) pairs where the kiosk misses the check-in.
    public var lost = 0
    /// Acknowledged check-ins missing on at least one live kiosk.
    public var lostCheckIns: Set<DeltaRef> = []
    /// Deltas held that no kiosk wrote (counted per kiosk that holds one).
    public var phantoms = 0
    public var digestsEqual = true
    /// Byzantine runs: lies an honest kiosk holds or counts beyond what the venue's rules allow.
    public var violations = 0
    /// The first problems found, for a person.
    public private(set) var problems: [String] = []

    public init() {}

    public var passed: Bool { lost == 0 && phantoms == 0 && digestsEqual && violations == 0 }

    mutating func note(_ problem: String) {
        if problems.count < 10 { problems.append(problem) }
    }
}
