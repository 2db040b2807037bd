import Foundation

/// What /proc says about one process: CPU time (utime + stime) and resident memory.
struct ProcessSample {
    let cpuSeconds: Double
    let rssKiB: Int
    let peakRssKiB: Int
    /// Private memory (RssAnon): what the process costs beyond the clean, shared pages of its binary
    /// and libraries, which the kernel can drop and read again.
    let anonKiB: Int

    init(pid: Int32) throws {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { throw BenchError(.setup, "cannot read /proc/\(pid)") }
        // Fields after "comm)": state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        cpuSeconds = ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
        func kib(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        rssKiB = kib("VmRSS")
        peakRssKiB = kib("VmHWM")
        anonKiB = kib("RssAnon")
    }
}
