import Foundation

/// The four settings of the simulator's table in BENCHMARKS.md.
public enum SimScenario: String, Sendable, CaseIterable {
    case clean
    /// 1 % loss, 1 % duplication, 5 % reordering.
    case lossy
    /// The venue cut in two during the burst, healed after 5–15 s.
    case partition
    /// 10 % of the kiosks crash-restarted during the burst.
    case crash

    public var faults: FaultOptions {
        var faults = FaultOptions()
        switch self {
        case .clean: break
        case .lossy:
            faults.loss = 0.01
            faults.duplication = 0.01
            faults.reordering = 0.05
        case .partition: faults.partition = true
        case .crash: faults.crash = true
        }
        return faults
    }

    public var title: String {
        switch self {
        case .clean: "clean"
        case .lossy: "1% loss + dup + reorder"
        case .partition: "partition healed"
        case .crash: "10% crash-restarted"
        }
    }

    /// One markdown row of a run of this scenario.
    public static func row(_ scenario: SimScenario, _ result: SimResult) -> String {
        func ms(_ value: Duration?) -> String { value.map { String(format: "%.1f", $0.seconds * 1_000) } ?? "—" }
        let cells = [
            "\(result.kiosks)", scenario.title, result.store, result.converged ? "yes" : "**no**",
            ms(result.convergeAfterLastAck), ms(result.convergeAfterHeal),
            String(format: "%.3f", result.copiesPerDeltaPerKiosk),
            String(format: "%.2f", result.framesPerDeltaPerKiosk),
            "\(result.maxSessions)", "\(result.check.lost) / \(result.check.phantoms)",
            String(format: "%.1f", result.virtualTime.seconds), String(format: "%.1f", result.wallTime.seconds),
            String(format: "%.0fx", result.speedup),
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    public static let header = """
        | kiosks | scenario | store | converged | after last ack (ms) | after heal (ms) | copies/delta/kiosk | frames/delta/kiosk | max sessions | lost / phantom | virtual s | wall s | speed |
        |---:|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|
        """
}
