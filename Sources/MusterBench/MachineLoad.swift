import Foundation

/// The whole machine's CPU use, from the first line of `/proc/stat`: how many cores were busy
/// (anything but idle and iowait) between two readings.
///
/// The burst waits for the lab to settle with it. Right after `scripts/lab up 50` the 50
/// avahi-daemons take 1.3–1.9 of the 2 cores for minutes while they browse and resolve each other
/// (mDNS on one link is quadratic in its hosts); a burst started then shared the CPU with that storm
/// for a varying part of its run, and the same binary gave 14 s or 26 s (BENCHMARKS.md, "The
/// machine"; 029f408). At a venue every kiosk has its own CPU for its avahi-daemon, and the rush comes
/// long after the boxes came up.
struct MachineLoad {
    private var busy: Double
    private var total: Double

    init() throws {
        (busy, total) = try Self.ticks()
    }

    /// Busy cores since the last reading (or since `init`), and starts the next interval.
    mutating func coresSinceLast() throws -> Double {
        let (nowBusy, nowTotal) = try Self.ticks()
        defer { (busy, total) = (nowBusy, nowTotal) }
        let elapsed = nowTotal - total
        guard elapsed > 0 else { return 0 }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        return (nowBusy - busy) / elapsed * cores
    }

    /// How a wait for a quiet machine ended.
    struct Settled {
        /// Seconds waited.
        let waited: Double
        /// Busy cores over the last window.
        let cores: Double
        /// Whether the machine got as quiet as asked before the timeout.
        let quiet: Bool
    }

    /// Waits until the machine used at most `cores` over a whole `window`, or `timeout` passed.
    static func waitForQuiet(cores limit: Double, window: Double, timeout: Double) throws -> Settled {
        let start = Stopwatch.seconds()
        var load = try MachineLoad()
        while true {
            Thread.sleep(forTimeInterval: window)
            let cores = try load.coresSinceLast()
            let waited = Stopwatch.seconds() - start
            if cores <= limit || waited >= timeout {
                return Settled(waited: waited, cores: cores, quiet: cores <= limit)
            }
        }
    }

    /// (busy, total) jiffies of all CPUs: `cpu user nice system idle iowait irq softirq steal …`.
    private static func ticks() throws -> (busy: Double, total: Double) {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { throw BenchError(.setup, "cannot read /proc/stat") }
        let fields = line.split(separator: " ").dropFirst().prefix(8).compactMap { Double($0) }
        guard fields.count == 8 else { throw BenchError(.setup, "unexpected /proc/stat line: \(line)") }
        let total = fields.reduce(0, +)
        let idle = fields[3] + fields[4]
        return (total - idle, total)
    }
}
