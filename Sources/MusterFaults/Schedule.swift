/// The scenarios of a run: the 3-minute one `make test` runs and the 20-minute one `make faults` runs.
struct Schedule: Sendable {
    var scenarios: [Scenario]
    /// Disk-full phases (seconds full, seconds freed) and crash points per point.
    var diskSeconds: Double
    /// Disk-full runs, by the free space in KiB given back (recovery is required of each).
    var disks: [Int] = [8192, 2048]
    var crashRounds: Int
    /// Rounds of the disk-destroyed scenario (``DiskDestroyedScenario``).
    var destroyRounds = 2
    /// Seconds each step of the revocations scenario holds (nil: not run).
    var revocationHold: Double?
    /// Whether the revocations scenario also forks the organizer's chain (its step 2). Off in the
    /// short run until the 20-minute campaign has run with the fix of RELIABILITY.md's finding 7
    /// (kiosks that had cut the victim's chain did not fetch its later deltas again).
    var revocationFork = true

    static let short = Schedule(
        scenarios: [
            Scenario(name: "partitions", families: [.partitions], seconds: 18),
            Scenario(name: "kills+pauses", families: [.kills, .pauses], seconds: 18),
            Scenario(name: "network", families: [.network], seconds: 20, hold: 3...4),
            Scenario(name: "avahi+clocks", families: [.avahi, .clocks], seconds: 14),
        ],
        diskSeconds: 5,
        crashRounds: 1,
        revocationHold: 2.5,
        revocationFork: false
    )

    /// About 20 minutes with the heals, the disk and the crash points.
    static func full(minutes: Double) -> Schedule {
        let scale = max(0.2, minutes / 20)
        return Schedule(
            scenarios: [
                Scenario(name: "partitions", families: [.partitions], seconds: 120 * scale),
                Scenario(name: "kills", families: [.kills], seconds: 120 * scale),
                Scenario(name: "pauses", families: [.pauses], seconds: 75 * scale),
                Scenario(name: "network", families: [.network], seconds: 150 * scale, hold: 4...8),
                Scenario(name: "avahi+clocks", families: [.avahi, .clocks], seconds: 100 * scale),
                Scenario(
                    name: "partitions+kills",
                    families: [.partitions, .kills],
                    seconds: 150 * scale,
                    concurrent: 2
                ),
                Scenario(
                    name: "everything",
                    families: [.partitions, .kills, .pauses, .network, .avahi, .clocks],
                    seconds: 200 * scale,
                    concurrent: 2,
                    hold: 3...7
                ),
            ],
            diskSeconds: 20 * scale,
            crashRounds: 2,
            destroyRounds: 5,
            revocationHold: max(2.5, 8 * scale)
        )
    }
}
