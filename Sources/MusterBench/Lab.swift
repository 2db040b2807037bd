import Foundation
import MusterClient
import MusterControl
import MusterRules
import MusterStore

/// The benchmark's own lab of real kiosks, driven through `scripts/lab` with namespace prefix
/// `mbench` and directory `.lab-bench`, so that it never touches the integration tests' lab (`mlab`)
/// or a fault campaign's (`mflt`). Every kiosk's `musterd` writes a commit trace
/// (`MUSTER_COMMIT_TRACE`) to `<lab>/trace-kI.log`.
///
/// Check-ins are sent by this process over each kiosk's control socket (`<lab>/kI/run/control.sock`,
/// reachable from the host), not by a process per operation.
final class Lab {
    static let prefix = "mbench"
    let repo: String
    let directory: String
    /// Where musterd and muster are (the directory of this muster-bench binary).
    let binaries: String
    private(set) var kiosks = 0
    private var clients: [Int: ControlClient] = [:]
    /// Set while a lab is up, so a signal handler knows to take it down.
    nonisolated(unsafe) static var active: Lab?

    init(repo: String, binaries: String) {
        self.repo = repo
        self.directory = repo + "/.lab-bench"
        self.binaries = binaries
    }

    /// Why the lab figures cannot be measured here, or nil when they can.
    static func unavailableReason(repo: String, binaries: String) -> String? {
        if getuid() != 0 { return "needs root" }
        if !FileManager.default.isExecutableFile(atPath: repo + "/scripts/lab") { return "no scripts/lab in \(repo)" }
        for tool in ["musterd", "muster"] where !FileManager.default.isExecutableFile(atPath: "\(binaries)/\(tool)") {
            return "no \(tool) beside muster-bench in \(binaries) (swift build --product \(tool))"
        }
        return nil
    }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["MUSTER_LAB_PREFIX"] = Self.prefix
        env["MUSTER_LAB_DIR"] = directory
        env["MUSTER_BIN"] = binaries
        env["MUSTER_COMMIT_TRACE"] = directory + "/trace-{kiosk}.log"
        return env
    }

    func config(_ kiosk: Int) -> String { "\(directory)/k\(kiosk)/musterd.toml" }
    func socket(_ kiosk: Int) -> String { "\(directory)/k\(kiosk)/run/control.sock" }
    func trace(_ kiosk: Int) -> String { "\(directory)/trace-k\(kiosk).log" }
    var organizerKey: String { directory + "/venue/organizer.key" }

    /// A fresh lab of `count` kiosks with their daemons running.
    func up(_ count: Int) throws {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for kiosk in 1...50 { try? FileManager.default.removeItem(atPath: trace(kiosk)) }
        Lab.active = self
        kiosks = count
        Self.roomForNeighbours(kiosks: count)
        try script(["up", "\(count)"])
    }

    /// The kernel's ARP table is one for every network namespace (gc_thresh3 = 1,024 entries by
    /// default), and a full mesh of n kiosks needs n(n-1) entries: at 50 kiosks, 2,450, and kiosks
    /// beyond the limit cannot reach anyone ("neighbor table overflow"). Raises the limits, never
    /// lowers them.
    static func roomForNeighbours(kiosks: Int) {
        let needed = 2 * kiosks * kiosks + 1_024
        for (name, value) in [("gc_thresh1", needed / 4), ("gc_thresh2", needed / 2), ("gc_thresh3", needed)] {
            let path = "/proc/sys/net/ipv4/neigh/default/\(name)"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let current = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), current < value
            else { continue }
            try? "\(value)\n".write(toFile: path, atomically: false, encoding: .utf8)
        }
    }

    /// Stops every process of the lab and deletes its namespaces (idempotent).
    func down() {
        clients = [:]  // closes the connections (ControlClient's deinit)
        _ = try? Shell.run([repo + "/scripts/lab", "down"], environment: environment)
        Lab.active = nil
    }

    @discardableResult
    func script(_ arguments: [String]) throws -> String {
        let result = try Shell.run([repo + "/scripts/lab"] + arguments, environment: environment)
        guard result.status == 0 else {
            throw BenchError(
                .setup,
                "scripts/lab \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output.suffix(2_000))"
            )
        }
        return result.output
    }

    /// Runs a command inside kiosk `kiosk` (its network and mount namespaces).
    @discardableResult
    func exec(_ kiosk: Int, _ command: [String]) throws -> String {
        try script(["exec", "\(kiosk)"] + command)
    }

    func start(_ kiosk: Int) throws { try script(["start", "\(kiosk)"]) }
    func stop(_ kiosk: Int) throws {
        clients[kiosk] = nil
        try script(["stop", "\(kiosk)"])
    }

    func musterdPID(_ kiosk: Int) throws -> Int32 {
        let text = try String(contentsOfFile: "\(directory)/k\(kiosk)/musterd.pid", encoding: .utf8)
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError(.setup, "k\(kiosk): no musterd pid")
        }
        return pid
    }

    /// One control connection per kiosk, kept open (as the kiosk screen keeps its own).
    func client(_ kiosk: Int) -> ControlClient {
        if let client = clients[kiosk] { return client }
        let client = ControlClient(path: socket(kiosk))
        clients[kiosk] = client
        return client
    }

    func request(_ kiosk: Int, _ request: ControlRequest) throws -> ControlResponse {
        do {
            return try client(kiosk).send(request)
        } catch {
            throw BenchError(.wrongResult, "k\(kiosk): control request \(request.operation.rawValue) failed: \(error)")
        }
    }

    /// The kiosk's public key (hex), as its commit trace names its own deltas.
    func kioskKey(_ kiosk: Int) throws -> String {
        let answer = try request(kiosk, .ping)
        guard case .pong(let pong) = answer else {
            throw BenchError(.wrongResult, "k\(kiosk): ping answered \(answer)")
        }
        return pong.kioskKey
    }

    func checkIn(_ kiosk: Int, query: String) throws {
        let response = try request(kiosk, .checkIn(query: query))
        guard case .checkedIn = response else {
            throw BenchError(.wrongResult, "k\(kiosk): check-in of \(query) gave \(response)")
        }
    }

    /// Imports `rows` bench attendees starting at `first` into the campaign on kiosk 1, as the
    /// organizer does (`muster import` submits signed batches over the control socket), and locks
    /// the kiosks to it when `lock` is set.
    func importAttendees(first: Int, rows: Int, lock: Bool) throws {
        let csv = "\(directory)/attendees-\(first)-\(rows).csv"
        try BenchAttendees.csv(first: first, count: rows).write(toFile: csv, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: csv) }
        try exec(1, ["muster", "import", csv, "--campaign", BenchAttendees.campaign, "--organizer-key", organizerKey])
        if lock {
            try exec(1, ["muster", "lock", BenchAttendees.campaign, "--organizer-key", organizerKey])
        }
    }

    /// Waits until every kiosk in `kiosks` has committed at least `count` deltas (by the lines of
    /// its trace), polling twice a second; throws after `timeout` seconds.
    func waitForLines(_ count: Int, kiosks: [Int], timeout: Double) throws {
        let counters = kiosks.map { TraceLineCounter(path: trace($0)) }
        let deadline = Stopwatch.seconds() + timeout
        while true {
            let behind = zip(kiosks, counters).compactMap { kiosk, counter in
                counter.update() < count ? "k\(kiosk) \(counter.lines)" : nil
            }
            if behind.isEmpty { return }
            if Stopwatch.seconds() > deadline {
                throw BenchError(
                    .wrongResult,
                    "kiosks did not reach \(count) deltas within \(Int(timeout)) s: \(behind.prefix(10).joined(separator: ", "))"
                )
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    /// The digest of kiosk `kiosk`'s replica, read from its file (read-only, as `muster` reads it).
    func digest(_ kiosk: Int) throws -> String {
        let venue = try VenueFile.load(path: "\(directory)/k\(kiosk)/venue.toml")
        let replica = try Replica.openReadOnly(
            path: "\(directory)/k\(kiosk)/state/replica.sqlite",
            policy: venue.policy
        )
        defer { try? replica.close() }
        return try replica.digest()
    }

    /// Waits (up to `timeout` s) until every kiosk in `kiosks` has the same digest; returns whether they do.
    func digestsEqual(_ kiosks: [Int], timeout: Double) throws -> Bool {
        let deadline = Stopwatch.seconds() + timeout
        while true {
            if Set(try kiosks.map { try digest($0) }).count == 1 { return true }
            if Stopwatch.seconds() > deadline { return false }
            Thread.sleep(forTimeInterval: 1)
        }
    }
}
