import Foundation

/// One kiosk on a small tmpfs state directory: filled while the workload runs (its check-ins must be
/// refused with an error, never acknowledged and lost), then freed (they must be acknowledged again).
struct DiskFullScenario {
    let venue: FaultsVenue
    let workload: Workload
    let seconds: Double
    var lab: LabControl { venue.lab }

    func run(say: (String) -> Void) throws -> CheckerReport {
        let name = "disk-full"
        let kiosk = lab.kiosks
        try lab.must(["stop", "\(kiosk)"])
        let used = Self.kibibytes(lab.kioskDirectory(kiosk) + "/state")
        try lab.must(["disk", "\(kiosk)", "small", "\(used + 2048)"])
        try lab.must(["start", "\(kiosk)"])
        workload.start(scenario: name)
        usleep(2_000_000)
        try lab.must(["disk", "\(kiosk)", "fill"])
        let fullAt = LabControl.nowMillis()
        say("  nemesis: k\(kiosk) state disk full (\(used + 2048) KiB tmpfs)")
        usleep(UInt32(seconds * 1_000_000))
        try lab.must(["disk", "\(kiosk)", "free"])
        let freedAt = LabControl.nowMillis()
        say("  nemesis: k\(kiosk) state disk freed")
        usleep(UInt32(seconds * 1_000_000))
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
        try Nemesis.healAll(lab)
        let converged = venue.converge(timeout: 90)
        var report = venue.check(scenario: name, operations: workload.log.operations, convergedSeconds: converged)
        report.figures.append(
            "k\(kiosk) while full: \(refused) refused \"disk full\", \(acked) acked (committed), \(other) other failures; \(afterFree) acked after freeing")
        if refused == 0 { report.expectationsFailed.append("no write was refused on the full disk") }
        if afterFree == 0 { report.expectationsFailed.append("no write acknowledged after the disk was freed") }
        return report
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
