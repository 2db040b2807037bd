import Foundation

/// One fault the nemesis can inject, and how to take it back.
enum Fault: Sendable, CustomStringConvertible {
    /// Kiosk I's link down.
    case isolate(Int)
    /// Every frame between the two groups dropped at the bridge.
    case split([Int], [Int])
    /// Each kiosk reaches only its two neighbours on a ring.
    case ring
    /// SIGKILL to these daemons back to back (within a millisecond); healed by starting them again.
    case kill([Int])
    /// SIGSTOP; healed by SIGCONT.
    case pause([Int])
    /// `scripts/lab nemesis I ARGS` (loss, dup, corrupt, reorder, slow).
    case packets(Int, [String])
    /// avahi-daemon killed with SIGKILL; healed by starting it again.
    case avahiKill(Int)
    /// avahi-daemon stopped and started at once.
    case avahiRestart(Int)
    /// musterd restarted with its clock this far off; healed by a restart on the true clock.
    case clock(Int, Int64)

    var description: String {
        switch self {
        case .isolate(let i): "isolate k\(i)"
        case .split(let a, let b):
            "split \(a.map { "k\($0)" }.joined(separator: ","))|\(b.map { "k\($0)" }.joined(separator: ","))"
        case .ring: "ring"
        case .kill(let ks): "kill -9 \(ks.map { "k\($0)" }.joined(separator: ","))"
        case .pause(let ks): "SIGSTOP \(ks.map { "k\($0)" }.joined(separator: ","))"
        case .packets(let i, let args): "k\(i) \(args.joined(separator: " "))"
        case .avahiKill(let i): "avahi-daemon kill -9 k\(i)"
        case .avahiRestart(let i): "avahi-daemon restart k\(i)"
        case .clock(let i, let ms): "k\(i) clock \(ms >= 0 ? "+" : "")\(ms / 60_000) min"
        }
    }

    /// Pairs of kiosks that cannot reach each other under a split or ring.
    static func blockedPairs(_ fault: Fault, kiosks: [Int]) -> [(Int, Int)] {
        switch fault {
        case .split(let a, let b):
            return a.flatMap { x in b.map { (x, $0) } }
        case .ring:
            let n = kiosks.count
            var pairs: [(Int, Int)] = []
            for x in 0..<n {
                for y in (x + 1)..<n where !(y - x == 1 || (x == 0 && y == n - 1)) {
                    pairs.append((kiosks[x], kiosks[y]))
                }
            }
            return pairs
        default:
            return []
        }
    }

    /// Injects the fault; returns how many daemons it killed (for the figures).
    func apply(_ lab: LabControl) throws -> Int {
        switch self {
        case .isolate(let i):
            try lab.must(["cut", "\(i)"])
        case .split, .ring:
            for (a, b) in Self.blockedPairs(self, kiosks: lab.all) { try lab.must(["block", "\(a)", "\(b)"]) }
        case .kill(let kiosks):
            return lab.signal(SIGKILL, kiosks).count
        case .pause(let kiosks):
            _ = lab.signal(SIGSTOP, kiosks)
        case .packets(let i, let args):
            try lab.must(["nemesis", "\(i)"] + args)
        case .avahiKill(let i):
            try lab.must(["avahi-kill", "\(i)"])
        case .avahiRestart(let i):
            try lab.must(["avahi-restart", "\(i)"])
        case .clock(let i, let offset):
            try lab.must(["stop", "\(i)"])
            // One argument: "-7200000" on its own would read as an option.
            try lab.must(["start", "\(i)", "--clock-offset-ms=\(offset)"])
        }
        return 0
    }

    /// Takes the fault back.
    func heal(_ lab: LabControl) throws {
        switch self {
        case .isolate(let i):
            try lab.must(["heal", "\(i)"])
        case .split, .ring:
            try lab.must(["unblock-all"])
        case .kill(let kiosks):
            for kiosk in kiosks {
                // Reap the killed daemon's pid file before starting it again.
                _ = LabControl.waitUntil(seconds: 5) { lab.daemonPID(kiosk) == nil }
                let result = lab.start(kiosk)
                guard result.status == 0 else { throw FaultsError("k\(kiosk) did not restart: \(result.output)") }
            }
        case .pause(let kiosks):
            _ = lab.signal(SIGCONT, kiosks)
        case .packets(let i, _):
            try lab.must(["nemesis", "\(i)", "off"])
        case .avahiKill(let i), .avahiRestart(let i):
            try lab.must(["avahi-restart", "\(i)"])
        case .clock(let i, _):
            try lab.must(["stop", "\(i)"])
            try lab.must(["start", "\(i)"])
        }
    }
}
