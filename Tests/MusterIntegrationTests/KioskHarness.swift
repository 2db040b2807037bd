import Foundation
import MusterTestSupport
import Testing

/// A real kiosk for end-to-end tests: a fresh venue in a temporary directory, a real `musterd`
/// process on a real Unix socket with a real SQLite replica, and the real `muster` binary.
/// Everything is stopped and removed when the harness goes away, even when a test fails.
final class KioskHarness {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        let stdoutBytes: Data
    }

    struct HarnessError: Error, CustomStringConvertible {
        let description: String
    }

    let directory: URL
    let binaries: URL
    var daemon: RunningProcess?
    var configPath: String { directory.appendingPathComponent("musterd.toml").path }
    /// The organizer's machine: its key and venue file (shared by the kiosks of one venue).
    let organizerDirectory: URL
    var organizerKey: String { organizerDirectory.appendingPathComponent("organizer.key").path }
    /// The organizer's venue file (holds the current network key); the kiosk's own copy is written
    /// by `muster join` to ``kioskVenuePath``.
    var organizerVenuePath: String { organizerDirectory.appendingPathComponent("venue.toml").path }
    var kioskVenuePath: String { directory.appendingPathComponent("joined-venue.toml").path }
    let passphrase: String?
    /// `host:port` this kiosk listens on for peer sessions.
    let listen: String
    var socketPath: String { directory.appendingPathComponent("run/control.sock").path }
    var logPath: String { directory.appendingPathComponent("musterd.log").path }

    /// - Parameters:
    ///   - venueOf: join the venue of another kiosk instead of creating a new one.
    ///   - listen: `host:port` for peer sessions; `staticPeers` as in the config.
    ///   - enroll: go through `muster join-request`, `muster enroll` and `muster join`, as a
    ///     technician would; false leaves the kiosk unenrolled (with no venue file).
    init(
        name: String = "Hall A",
        location: String = "Main entrance",
        passphrase: String? = nil,
        venueOf other: KioskHarness? = nil,
        listen: String = "127.0.0.1:0",
        staticPeers: [String] = [],
        enroll: Bool = true
    ) throws {
        self.passphrase = passphrase
        self.listen = listen
        binaries = try Self.findBinaries()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("muster-it-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        organizerDirectory = other?.organizerDirectory ?? directory.appendingPathComponent("venue")
        if other == nil {
            let created = try muster(
                ["venue", "create", "--out", directory.appendingPathComponent("venue").path, "--name", "Test Venue"]
                    + (passphrase == nil ? [] : ["--passphrase"]),
                environment: passphrase.map { ["MUSTER_PASSPHRASE": $0] } ?? [:]
            )
            guard created.status == 0 else { throw HarnessError(description: "venue create failed: \(created.stderr)") }
        }
        let peers = staticPeers.map { "\"\($0)\"" }.joined(separator: ", ")
        let config = """
            name = "\(name)"
            location = "\(location)"
            state_dir = "state"
            control_socket = "run/control.sock"
            venue = "joined-venue.toml"
            listen = "\(listen)"
            static_peers = [\(peers)]
            discovery = false
            """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        if enroll { try self.enroll() }
    }

    /// The enrollment a technician and the organizer do: request on the kiosk, enroll on the
    /// organizer's machine, join on the kiosk. Returns the request and bundle texts.
    @discardableResult
    func enroll() throws -> (request: String, bundle: String) {
        let request = try muster(["join-request", "--text-only"])
        guard request.status == 0, let requestText = request.stdout.split(separator: "\n").last.map(String.init) else {
            throw HarnessError(description: "join-request failed: \(request.stderr)")
        }
        let environment = passphrase.map { ["MUSTER_PASSPHRASE": $0] } ?? [:]
        let enrolled = try muster(
            ["enroll", requestText, "--organizer-key", organizerKey, "--text-only"],
            environment: environment
        )
        guard enrolled.status == 0, let bundle = enrolled.stdout.split(separator: "\n").last.map(String.init) else {
            throw HarnessError(description: "enroll failed: \(enrolled.stderr)")
        }
        let joined = try muster(["join", bundle])
        guard joined.status == 0 else { throw HarnessError(description: "join failed: \(joined.stderr)") }
        return (requestText, bundle)
    }

    deinit {
        if let daemon, daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// `MUSTER_BIN_DIR`, else the directory of the running test binary (`.build/debug`).
    static func findBinaries() throws -> URL {
        var candidates: [URL] = []
        if let dir = ProcessInfo.processInfo.environment["MUSTER_BIN_DIR"] {
            candidates.append(URL(fileURLWithPath: dir))
        }
        var executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if executable.pathExtension == "xctest" { executable.deleteLastPathComponent() }
        candidates.append(executable)
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for candidate in candidates
        where FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("musterd").path)
            && FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("muster").path)
        {
            return candidate
        }
        throw HarnessError(
            description:
                "musterd and muster binaries not found (run `swift build` first); looked in \(candidates.map(\.path))"
        )
    }

    /// Starts `musterd` (with `arguments` after the harness's own) and waits until its control socket answers.
    /// - Parameter wrapper: a command that runs musterd in its place (`prlimit --nofile=2048 --`, as a
    ///   unit's `LimitNOFILE=` would), so the process started is still musterd.
    func start(_ arguments: [String] = [], under wrapper: [String] = []) throws {
        // Each start begins a fresh log, as a restarted daemon's checks expect.
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let command = wrapper + [binaries.appendingPathComponent("musterd").path]
        let process = try Command(
            command[0],
            Array(command.dropFirst()) + ["--config", configPath, "--log-level", "debug"] + arguments,
            output: .file(logPath)
        ).start()
        daemon = process
        try waitUntil("musterd answers on its control socket", timeout: 20) {
            guard process.isRunning else {
                throw HarnessError(description: "musterd exited early: \(self.daemonLog())")
            }
            return FileManager.default.fileExists(atPath: self.socketPath) && (try? self.muster(["status"]).status) == 0
        }
    }

    /// SIGSTOP / SIGCONT: a frozen kiosk that keeps its sockets open.
    func signal(_ number: Int32) {
        if let daemon { kill(daemon.processIdentifier, number) }
    }

    /// SIGKILL, as a power cut would: no shutdown, no goodbye.
    func killHard() throws {
        guard let daemon else { return }
        kill(daemon.processIdentifier, SIGKILL)
        try waitUntil("musterd is gone after SIGKILL", timeout: 10) { !daemon.isRunning }
        self.daemon = nil
    }

    /// SIGTERM and wait for a clean exit.
    func stop() throws {
        guard let daemon else { return }
        daemon.terminate()
        try waitUntil("musterd exits after SIGTERM", timeout: 20) { !daemon.isRunning }
        #expect(daemon.terminationStatus == 0, "musterd exit status \(daemon.terminationStatus): \(daemonLog())")
        self.daemon = nil
    }

    func daemonLog() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs `muster` with the kiosk's config and the given standard input.
    @discardableResult
    func muster(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) throws -> Result {
        try runner.run(arguments, input: input, environment: extra)
    }

    /// Runs `muster` for this kiosk from any thread.
    var runner: MusterRunner { MusterRunner(binaries: binaries, configPath: configPath) }
}

/// Runs the `muster` binary with one kiosk's config (Sendable, for tests that use threads).
struct MusterRunner: Sendable {
    let binaries: URL
    let configPath: String

    func run(
        _ arguments: [String],
        input: String = "",
        environment extra: [String: String] = [:]
    ) throws
        -> KioskHarness.Result
    {
        try runProcess(
            binaries.appendingPathComponent("muster"),
            arguments,
            environment: environment(extra),
            input: input
        ).result
    }

    /// The environment `muster` runs with: this kiosk's config, UTC, no inherited passphrase.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["MUSTER_CONFIG"] = configPath
        environment["TZ"] = "UTC"
        environment.removeValue(forKey: "MUSTER_PASSPHRASE")
        environment.merge(extra) { $1 }
        return environment
    }
}

/// Runs a program to its end with `input` on stdin (nil: /dev/null) and collects its output.
func runProcess(
    _ executable: URL,
    _ arguments: [String],
    environment: [String: String],
    input: String? = nil
)
    throws -> (result: KioskHarness.Result, signaled: Bool)
{
    let run = try Command(
        executable.path,
        arguments,
        environment: environment,
        input: input.map { .text($0) } ?? .empty
    ).run()
    let result = KioskHarness.Result(
        status: run.status,
        stdout: run.output,
        stderr: run.errorOutput,
        stdoutBytes: run.outputBytes
    )
    return (result, run.signaled)
}

extension KioskHarness {
    func write(_ name: String, _ contents: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `muster status --json` as a dictionary.
    func status() throws -> [String: Any] {
        let result = try muster(["status", "--json"])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { throw HarnessError(description: "status failed: \(result.stderr)") }
        return object
    }
}

/// A free TCP port on loopback that no outgoing connection can take (see ``LoopbackPort``).
func freeLoopbackPort() throws -> Int { try LoopbackPort.reserve() }

/// Polls `condition` until it holds or the deadline passes (no fixed sleeps in tests).
func waitUntil(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return }
        usleep(20_000)
    }
    throw KioskHarness.HarnessError(description: "timed out after \(timeout) s waiting until \(what)")
}
