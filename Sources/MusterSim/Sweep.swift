/// Many seeds of one setting, run in this process (one after another, or a few at once by ``SeedSweep``).
public struct SweepSummary: Sendable {
    public var runs = 0
    public var converged = 0
    public var passed = 0
    public var lost = 0
    public var phantoms = 0
    public var digestMismatches = 0
    /// Seeds that failed, with the failure's line.
    public var failures: [(seed: UInt64, line: String)] = []
    public var slowestConvergeAfterHeal: Duration = .zero
    public var maxCopiesPerDeltaPerKiosk = 0.0
    public var maxSessions = 0
    public var virtualTime: Duration = .zero
    /// The runs' wall time added up (with several jobs at once, more than the sweep took).
    public var wallTime: Duration = .zero
    /// The sweep's own wall time, when it is known (``SeedSweep`` runs several seeds at once).
    public var elapsed: Duration?
    /// Runs with a revocation across the partition (``SimOptions/revoke``): how many revoked a
    /// kiosk, how many of those kiosks stopped, and the acknowledged check-ins set aside in all.
    public var revoked = 0
    public var revokedStopped = 0
    public var acknowledgedSetAside = 0
    /// Of those, runs whose live kiosks all ended on the rotated network key, runs that needed a
    /// rekey session for it, and the rekey sessions in all.
    public var rotated = 0
    public var rekeyed = 0
    public var rekeySessions = 0

    public init() {}

    public mutating func add(_ result: SimResult) {
        runs += 1
        if result.converged { converged += 1 }
        if result.passed { passed += 1 } else { failures.append((result.seed, result.line)) }
        lost += result.check.lost
        phantoms += result.check.phantoms
        if !result.check.digestsEqual { digestMismatches += 1 }
        if let heal = result.convergeAfterHeal { slowestConvergeAfterHeal = max(slowestConvergeAfterHeal, heal) }
        maxCopiesPerDeltaPerKiosk = max(maxCopiesPerDeltaPerKiosk, result.copiesPerDeltaPerKiosk)
        maxSessions = max(maxSessions, result.maxSessions)
        virtualTime += result.virtualTime
        wallTime += result.wallTime
        if let revocation = result.revocation {
            revoked += 1
            if revocation.stopped { revokedStopped += 1 }
            acknowledgedSetAside += revocation.acknowledgedSetAside
            if revocation.keyGeneration > 0 && result.passed { rotated += 1 }
            if revocation.rekeySessions > 0 { rekeyed += 1 }
            rekeySessions += revocation.rekeySessions
        }
    }

    public var line: String {
        "sweep: \(runs) seeds, \(converged) converged, \(passed) passed, lost=\(lost) phantom=\(phantoms) "
            + "digest mismatches=\(digestMismatches); slowest convergence \(slowestConvergeAfterHeal.millisText) ms "
            + "after the last fault healed; max copies/delta/kiosk \(String(format: "%.3f", maxCopiesPerDeltaPerKiosk)); "
            + "max sessions \(maxSessions); virtual \(String(format: "%.1f", virtualTime.seconds)) s in wall "
            + "\(String(format: "%.1f", wallTime.seconds)) s"
            + (elapsed.map { "; elapsed \(String(format: "%.1f", $0.seconds)) s" } ?? "")
            + (revoked > 0
                ? "; revoked a kiosk in \(revoked) (stopped \(revokedStopped)), acknowledged check-ins set aside "
                    + "\(acknowledgedSetAside); every live kiosk on the rotated network key in \(rotated), "
                    + "\(rekeySessions) rekey sessions in \(rekeyed)" : "")
    }
}
