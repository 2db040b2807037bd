/// What the checker found after one scenario, and the line it prints.
struct CheckerReport: Sendable {
    var scenario: String
    var operations: [Operation.Outcome: Int] = [:]
    var totalOperations: Int { operations.values.reduce(0, +) }
    /// Acknowledged writes missing from a replica (worst replica).
    var lost = 0
    /// Writes on a replica that no operation submitted, or more of them than were submitted (worst replica).
    var phantom = 0
    var replicas = 0
    var digestsEqual = 0
    var integrityOK = 0
    /// Seconds from the end of the heal to equal digests on every replica; nil if they never became equal.
    var convergedSeconds: Double?
    /// Operations with an unknown outcome in the whole history, and how many of them took effect.
    var unknownTotal = 0
    var unknownApplied = 0
    /// Extra figures of the scenario (kills, pauses, refusals on a full disk...).
    var figures: [String] = []
    /// Each problem found, for the log.
    var problems: [String] = []
    /// Conditions the scenario itself requires (e.g. the full disk refused something).
    var expectationsFailed: [String] = []

    var passed: Bool {
        lost == 0 && phantom == 0 && digestsEqual == replicas && integrityOK == replicas && convergedSeconds != nil
            && expectationsFailed.isEmpty
    }

    var line: String {
        let ops = totalOperations.formatted()
        let outcomes = Operation.Outcome.allCases.map { "\(operations[$0, default: 0]) \($0.rawValue)" }.joined(
            separator: "/"
        )
        let converged = convergedSeconds.map { String(format: "converged %.1f s after heal", $0) } ?? "NOT converged"
        var parts = [
            "\(ops) ops (\(outcomes))", "\(lost) lost", "\(phantom) phantom",
            "\(digestsEqual)/\(replicas) digests equal",
            converged, "integrity ok \(integrityOK)/\(replicas)",
            "unknown so far \(unknownTotal) (\(unknownApplied) applied, \(unknownTotal - unknownApplied) not)",
        ]
        parts += figures
        parts += expectationsFailed.map { "FAILED: \($0)" }
        return "\(scenario): " + parts.joined(separator: ", ") + (passed ? "" : "  <-- FAIL")
    }
}

extension Int {
    /// 12000 → "12,000".
    func formatted() -> String {
        let digits = String(self)
        var out = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return String(out.reversed())
    }
}
