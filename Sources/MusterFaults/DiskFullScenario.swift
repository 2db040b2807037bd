import Foundation

/// One kiosk on a small tmpfs state directory: filled while the workload runs (its check-ins must be
/// refused with an error, never acknowledged and lost), then freed (they must be acknowledged again).
struct DiskFullScenario {
    let venue: FaultsVenue
    let workload: Workload
    let seconds: Double
    /// Free space on the tmpfs before it is filled, and again after the filler is removed. With
    /// less than SQLite's WAL needs to reach its automatic checkpoint (2 MiB: "disk-nearly-full"),
    /// the kiosk used to stay unable to write (RELIABILITY.md, finding 3).
    let headroomKiB: Int
    var lab: LabControl { venue.lab }

    var name: String { headroomKiB >= 8192 ? "disk-full" : "disk-nearly-full" }

    func run(say: (String) -> Void) throws -> CheckerReport {
        let kiosk = lab.kiosks
        try lab.must(["stop", "\(kiosk)"])
        let used = Self.kibibytes(lab.kioskDirectory(kiosk) + "/state")
        try lab.must(["disk", "\(kiosk)", "small", "\(used + headroomKiB)"])
        try lab.must(["start", "\(kiosk)"])
        workload.start(scenario: name)
        usleep(2_000_000)
        try lab.must(["disk", "\(kiosk)", "fill"])
        let fullAt = LabControl.nowMillis()
        say("  nemesis: k\(kiosk) state disk full (\(used + headroomKiB) KiB tmpfs)")
        usleep(UInt32(seconds * 1_000_000))
        try lab.must(["disk", "\(kiosk)", "free"])
        let freedAt = LabControl.nowMillis()
        say("  nemesis: k\(kiosk) state disk freed; \(stateListing(kiosk))")
        usleep(UInt32(seconds * 1_000_000))
        let listing = stateListing(kiosk)
        say("  k\(kiosk) state after \(seconds) s freed: \(listing)")
        workload.stop()
        let onKiosk = workload.log.operations(in: name).filter { $0.kiosk == kiosk && $0.kind != .lock }
        // Give the first writes after filling a moment: SQLite may still have room in its WAL.
        let whileFull = onKiosk.filter { $0.startMillis >= fullAt && $0.endMillis <= freedAt }
        let refused = whileFull.filter { $0.outcome == .failed && $0.detail.lowercased().contains("disk") }.count
        let acked = whileFull.filter { $0.outcome == .ok }.count
        let afterFree = onKiosk.filter { $0.startMillis >= freedAt && $0.outcome == .ok }.count
        let other = whileFull.filter { $0.outcome == .failed || $0.outcome == .unknown }.count - refused
        try lab.must(["stop", "\(kiosk)"])
        try lab.must(["disk", "\(kiosk)", "restore"])
        let converged = try venue.healAndConverge(timeout: 90)
        var report = venue.check(scenario: name, operations: workload.log.operations, convergedSeconds: converged)
        report.figures.append(
            "k\(kiosk) while full: \(refused) refused \"disk full\", \(acked) acked (committed), \(other) other failures; \(afterFree) acked after freeing"
        )
        if refused == 0 { report.expectationsFailed.append("no write was refused on the full disk") }
        if afterFree == 0 {
            report.expectationsFailed.append(
                "no write acknowledged after \(headroomKiB) KiB were freed [\(listing)] (finding 3)"
            )
        }
        return report
    }

    /// The state directory as the daemon sees it (the tmpfs is in its mount namespace only).
    func stateListing(_ kiosk: Int) -> String {
        guard let pid = lab.daemonPID(kiosk) else { return "musterd not running" }
        let path = "/proc/\(pid)/root" + lab.kioskDirectory(kiosk) + "/state"
        let items = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return items.sorted().map { item in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + item)
            return "\(item) \(((attributes?[.size] as? Int) ?? 0) / 1024) KiB"
        }.joined(separator: ", ")
    }

    static func kibibytes(_ path: String) -> Int {
        let items = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
        var bytes = 0
        for item in items {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + item)
            bytes += (attributes?[.size] as? Int) ?? 0
        }
        return bytes / 1024 + 1
    }
}
