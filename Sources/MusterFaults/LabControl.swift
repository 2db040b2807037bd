import Foundation
import MusterProcess
import MusterTime

/// The lab the campaign runs on, driven through `scripts/lab` with the campaign's own prefix and
/// directory, and a few things done directly: signals to daemons and control-socket paths.
struct LabControl: Sendable {
    struct Result: Sendable {
        var status: Int32
        var output: String
    }

    let root: String
    let directory: String
    let prefix: String
    let binaries: String
    let kiosks: Int

    var script: String { root + "/scripts/lab" }
    var organizerKey: String { directory + "/venue/organizer.key" }
    func kioskDirectory(_ kiosk: Int) -> String { "\(directory)/k\(kiosk)" }
    func configPath(_ kiosk: Int) -> String { kioskDirectory(kiosk) + "/musterd.toml" }
    func socketPath(_ kiosk: Int) -> String { kioskDirectory(kiosk) + "/run/control.sock" }
    func replicaPath(_ kiosk: Int) -> String { kioskDirectory(kiosk) + "/state/replica.sqlite" }
    func logPath(_ kiosk: Int) -> String { kioskDirectory(kiosk) + "/musterd.log" }
    var all: [Int] { Array(1...kiosks) }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_LAB_PREFIX"] = prefix
        environment["MUSTER_LAB_DIR"] = directory
        environment["MUSTER_BIN"] = binaries
        environment["TZ"] = "UTC"
        environment.removeValue(forKey: "MUSTER_CRASH_AT")
        return environment
    }

    /// Runs `scripts/lab ARGS`, output and errors together.
    @discardableResult
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) -> Result {
        let command = Command(
            "/bin/bash",
            [script] + arguments,
            environment: environment.merging(extraEnvironment) { $1 },
            output: .merged
        )
        do {
            let result = try command.run()
            return Result(status: result.status, output: result.output)
        } catch {
            return Result(status: -1, output: "cannot run scripts/lab: \(error)")
        }
    }

    /// Runs `scripts/lab ARGS` and throws with its output when it fails.
    func must(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws {
        let result = run(arguments, extraEnvironment: extraEnvironment)
        guard result.status == 0 else {
            throw FaultsError(
                "scripts/lab \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output)"
            )
        }
    }

    /// musterd's pid, when it runs.
    func daemonPID(_ kiosk: Int) -> pid_t? {
        guard let text = try? String(contentsOfFile: kioskDirectory(kiosk) + "/musterd.pid", encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), Self.alive(pid)
        else { return nil }
        return pid
    }

    /// Whether a process exists and is not a zombie.
    static func alive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z"
    }

    /// Sends `signal` to the daemons of `kiosks` back to back (several kills within a millisecond).
    func signal(_ signal: Int32, _ kiosks: [Int]) -> [Int] {
        let targets = kiosks.compactMap { kiosk in daemonPID(kiosk).map { (kiosk, $0) } }
        var hit: [Int] = []
        for (kiosk, pid) in targets where kill(pid, signal) == 0 { hit.append(kiosk) }
        return hit
    }

    /// Starts kiosk I's daemon unless it runs; extra musterd arguments and environment optional.
    @discardableResult
    func start(_ kiosk: Int, arguments: [String] = [], environment: [String: String] = [:]) -> Result {
        if daemonPID(kiosk) != nil { return Result(status: 0, output: "running") }
        return run(["start", "\(kiosk)"] + arguments, extraEnvironment: environment)
    }

    /// Waits for `condition`, polling every `pollMillis`; returns whether it held before the deadline.
    static func waitUntil(seconds: Double, pollMillis: UInt32 = 100, _ condition: () -> Bool) -> Bool {
        let deadline = time.deadline(after: .milliseconds(Int64(seconds * 1000)))
        while time.uptime < deadline {
            if condition() { return true }
            usleep(pollMillis * 1000)
        }
        return condition()
    }

    /// The campaign's clock: the machine's, since it drives a lab of real daemons in real time.
    static let time = SystemTime()

    static func nowMillis() -> UInt64 { time.wallMillis }

    /// Seconds on the campaign's clock since `start` (an ``time`` uptime reading).
    static func seconds(since start: Duration) -> Double {
        let elapsed = time.uptime - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
