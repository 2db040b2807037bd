import Foundation
import MusterCore

/// Injects a scenario's faults on a schedule drawn from a seeded generator: apply, hold while the
/// workload runs, heal, a short gap, the next. Combined scenarios hold several at once.
struct Nemesis {
    let lab: LabControl
    var random: SplitMix64
    var kills = 0
    var applied: [String] = []
    /// Faults that could not be applied or healed (a daemon that does not come back is a finding).
    var errors: [String] = []

    init(lab: LabControl, seed: UInt64) {
        self.lab = lab
        random = SplitMix64(seed: seed)
    }

    private mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(random.next() % 10_000) / 10_000
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    private mutating func kiosks(_ count: Int, from pool: [Int]) -> [Int] {
        var pool = pool
        var chosen: [Int] = []
        while chosen.count < count, !pool.isEmpty {
            chosen.append(pool.remove(at: Int(random.next() % UInt64(pool.count))))
        }
        return chosen.sorted()
    }

    /// A fault of `family` on kiosks from `pool` (so that faults held together touch different daemons).
    mutating func draw(_ family: Scenario.Family, pool: [Int]) -> Fault {
        switch family {
        case .partitions:
            switch random.next() % 3 {
            case 0: return .isolate(pick(pool))
            case 1:
                let minority = kiosks(lab.kiosks / 2, from: lab.all)
                return .split(minority, lab.all.filter { !minority.contains($0) })
            default: return .ring
            }
        case .kills: return .kill(kiosks(1 + Int(random.next() % 3), from: pool))
        case .pauses: return .pause(kiosks(1 + Int(random.next() % 2), from: pool))
        case .network:
            let kind = pick([["loss", "10"], ["dup", "10"], ["corrupt", "2"], ["reorder"], ["slow"]])
            return .packets(pick(pool), kind)
        case .avahi: return random.next() % 2 == 0 ? .avahiKill(pick(pool)) : .avahiRestart(pick(pool))
        case .clocks: return .clock(pick(pool), random.next() % 2 == 0 ? 7_200_000 : -7_200_000)
        }
    }

    static func touched(_ fault: Fault) -> [Int] {
        switch fault {
        case .isolate(let i), .packets(let i, _), .avahiKill(let i), .avahiRestart(let i), .clock(let i, _): [i]
        case .kill(let ks), .pause(let ks): ks
        case .split, .ring: []
        }
    }

    /// Runs the scenario's faults until `seconds` have passed; every fault is healed before it returns.
    mutating func run(_ scenario: Scenario, say: (String) -> Void) throws {
        let end = LabControl.time.deadline(after: .milliseconds(Int64(scenario.seconds * 1000)))
        while LabControl.time.uptime < end {
            var families = scenario.families
            var pool = lab.all
            var active: [Fault] = []
            for _ in 0..<max(1, scenario.concurrent) where !families.isEmpty && !pool.isEmpty {
                let family = families.remove(at: Int(random.next() % UInt64(families.count)))
                let fault = draw(family, pool: pool)
                pool.removeAll { Self.touched(fault).contains($0) }
                active.append(fault)
            }
            for fault in active {
                do {
                    kills += try fault.apply(lab)
                } catch {
                    errors.append("apply \(fault): \(Self.brief(error))")
                }
                applied.append(fault.description)
            }
            say("  nemesis: \(active.map(\.description).joined(separator: " + "))")
            let hold = min(uniform(scenario.hold), max(0.5, -LabControl.seconds(since: end)))
            usleep(UInt32(hold * 1_000_000))
            for fault in active.reversed() {
                do {
                    try fault.heal(lab)
                } catch {
                    errors.append("heal \(fault): \(Self.brief(error))")
                }
            }
            usleep(UInt32(uniform(0.5...1.5) * 1_000_000))
        }
    }

    /// The last lines of an error (scripts/lab prints the daemon log's tail).
    static func brief(_ error: any Error) -> String {
        "\(error)".split(separator: "\n").suffix(3).joined(separator: " | ")
    }

    /// Takes back anything a fault may have left: links, blocks, packet faults, pauses, daemons, avahi.
    static func healAll(_ lab: LabControl) throws {
        _ = lab.signal(SIGCONT, lab.all)
        try lab.must(["unblock-all"])
        for kiosk in lab.all {
            try lab.must(["heal", "\(kiosk)"])
            try lab.must(["nemesis", "\(kiosk)", "off"])
            if lab.daemonPID(kiosk) == nil {
                let result = lab.start(kiosk)
                guard result.status == 0 else { throw FaultsError("k\(kiosk) did not start: \(result.output)") }
            }
        }
    }
}
