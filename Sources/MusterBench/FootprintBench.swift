import Foundation

/// Footprint of every kiosk of a lab holding the full replica, after load: resident memory
/// (VmRSS, VmHWM), CPU over an idle window (utime + stime from /proc/<pid>/stat) and the bytes on
/// its lab link over that window (rx + tx of veth-kI in its namespace's /proc/net/dev) divided by its
/// peers. The worst kiosk is reported. Beside them: the replica's file size, the same kiosk's
/// avahi-daemon's CPU over the same window, and the smallest heartbeat traffic TCP allows.
enum FootprintBench {
    struct Result {
        var rssMiB = 0.0
        var peakRssMiB = 0.0
        var anonMiB = 0.0
        var replicaMiB = 0.0
        var cpuPercent = 0.0
        var avahiCpuPercent = 0.0
        var bytesPerSecondPerPeer = 0.0
        var windowSeconds = 0.0
        /// Each kiosk's RSS and peak (VmHWM), in MiB, in kiosk order: which one the worst is.
        var perKiosk: [(rss: Double, peak: Double)] = []
    }

    static func run(lab: Lab, idleSeconds: Double) throws -> Result {
        let kiosks = Array(1...lab.kiosks)
        let peers = Double(max(1, lab.kiosks - 1))
        func avahiPID(_ kiosk: Int) -> Int32? {
            Int32(
                (try? lab.exec(kiosk, ["cat", "/run/avahi-daemon/pid"]))?.trimmingCharacters(
                    in: .whitespacesAndNewlines
                ) ?? ""
            )
        }
        func linkBytes(_ kiosk: Int) throws -> Double {
            let text = try lab.exec(kiosk, ["cat", "/proc/net/dev"])
            guard let line = text.split(separator: "\n").first(where: { $0.contains("veth-k\(kiosk):") }) else {
                throw BenchError(.setup, "k\(kiosk): no veth-k\(kiosk) in /proc/net/dev")
            }
            let fields = line.split(separator: ":")[1].split(separator: " ")
            return (Double(fields[0]) ?? 0) + (Double(fields[8]) ?? 0)  // rx bytes + tx bytes
        }
        let pids = try kiosks.map { try lab.musterdPID($0) }
        let avahi = kiosks.map(avahiPID)
        let bytesBefore = try kiosks.map(linkBytes)
        let before = try pids.map { try ProcessSample(pid: $0) }
        let avahiBefore = avahi.map { $0.flatMap { try? ProcessSample(pid: $0) } }
        let start = Stopwatch.seconds()
        Thread.sleep(forTimeInterval: idleSeconds)
        let after = try pids.map { try ProcessSample(pid: $0) }
        let avahiAfter = avahi.map { $0.flatMap { try? ProcessSample(pid: $0) } }
        let window = Stopwatch.seconds() - start
        let bytesAfter = try kiosks.map(linkBytes)
        var result = Result(windowSeconds: window)
        for index in kiosks.indices {
            result.perKiosk.append((Double(after[index].rssKiB) / 1024, Double(after[index].peakRssKiB) / 1024))
            result.rssMiB = max(result.rssMiB, Double(after[index].rssKiB) / 1024)
            result.peakRssMiB = max(result.peakRssMiB, Double(after[index].peakRssKiB) / 1024)
            result.anonMiB = max(result.anonMiB, Double(after[index].anonKiB) / 1024)
            result.cpuPercent = max(
                result.cpuPercent,
                (after[index].cpuSeconds - before[index].cpuSeconds) / window * 100
            )
            if let a = avahiAfter[index], let b = avahiBefore[index] {
                result.avahiCpuPercent = max(result.avahiCpuPercent, (a.cpuSeconds - b.cpuSeconds) / window * 100)
            }
            result.bytesPerSecondPerPeer = max(
                result.bytesPerSecondPerPeer,
                (bytesAfter[index] - bytesBefore[index]) / window / peers
            )
        }
        let state = "\(lab.directory)/k1/state/replica.sqlite"
        let size = ["", "-wal"].compactMap {
            (try? FileManager.default.attributesOfItem(atPath: state + $0))?[.size] as? NSNumber
        }.reduce(0.0) { $0 + $1.doubleValue }
        result.replicaMiB = size / 1_048_576
        return result
    }

    /// The least a heartbeat can cost on this link: one TCP segment with a 22-byte sealed ping
    /// frame (4-byte length, secretstream header byte and tag, 16-byte MAC) and its ACK, each with
    /// Ethernet (14), IPv4 (20) and TCP with timestamps (32) headers, each way, at `perSecond`.
    static func heartbeatFloor(perSecond: Double) -> Double {
        let segment = 14.0 + 20 + 32
        return perSecond * 2 * (segment + 22 + segment)
    }
}
