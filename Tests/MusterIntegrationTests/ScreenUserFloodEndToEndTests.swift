import Foundation
import MusterProcess
import MusterTestSupport
import Testing

/// A process escaped from the kiosk screen, as the screen's user, against a real `musterd` under
/// the descriptor limit of its unit (issue 32, item 5): what it can hold through the control socket
/// must leave the daemon serving staff and the screen.
@Suite("The screen's user floods the control socket", .serialized, .enabled(if: geteuid() == 0))
struct ScreenUserFloodEndToEndTests {
    /// musterd.service's `LimitNOFILE=`.
    static let descriptorLimit = 2_048

    /// The attacker, run as the screen's user: 64 connections that each send an 8 MiB line with no
    /// newline, then 2,100 connections that send nothing (more than the unit's descriptor limit), all
    /// held open until its standard input closes. It prints how many of each it managed, then waits.
    static let attacker = """
        import resource, socket, sys, time
        path = sys.argv[1]
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        held = []
        line = b"x" * (8 * 1024 * 1024)
        whole = 0
        for _ in range(64):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(5)
            try:
                s.connect(path)
                s.sendall(line)
                whole += 1
            except OSError:
                pass
            held.append(s)
        # A full accept queue refuses a connect at once: try again until the daemon took it (or 60 s).
        connected = 0
        deadline = time.monotonic() + 60
        for _ in range(2100):
            while time.monotonic() < deadline:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(1)
                try:
                    s.connect(path)
                except OSError:
                    s.close()
                    time.sleep(0.002)
                    continue
                connected += 1
                held.append(s)
                break
        print("ready", whole, connected, flush=True)
        sys.stdin.read()
        """

    @Test(
        "2,100 connections and 64 partial 8 MiB lines from the screen's user leave the daemon alive and staff `status` answered"
    )
    func screenUserFlood() throws {
        let kiosk = try KioskHarness()
        defer { try? kiosk.stop() }
        try kiosk.appendToConfig("\n[screen]\nuser = \"\(ControlPolicyEndToEndTests.screenUser)\"\n")
        try kiosk.start(under: ["/usr/bin/prlimit", "--nofile=\(Self.descriptorLimit):\(Self.descriptorLimit)", "--"])
        let daemon = try #require(kiosk.daemon)
        let pid = daemon.processIdentifier
        let csv = try kiosk.write("attendees.csv", ControlPolicyEndToEndTests.attendees)
        #expect(
            try kiosk.muster(["import", csv, "--campaign", "DevConf", "--organizer-key", kiosk.organizerKey]).status
                == 0
        )
        #expect(try kiosk.muster(["lock", "DevConf", "--organizer-key", kiosk.organizerKey]).status == 0)
        // The socket's group lets the screen's user in, as the kiosk unit's SupplementaryGroups=muster does.
        let socket = kiosk.socketPath
        for path in [(socket as NSString).deletingLastPathComponent, socket] {
            #expect(chown(path, 0, ControlPolicyEndToEndTests.screenID) == 0)
        }
        let rssBefore = try SecurityEndToEndTests.memoryKiB(pid, "VmRSS")
        let descriptorsBefore = openDescriptors(pid)

        let attack = try Command(
            "/usr/bin/setpriv",
            [
                "--reuid=\(ControlPolicyEndToEndTests.screenID)", "--regid=\(ControlPolicyEndToEndTests.screenID)",
                "--clear-groups", "/usr/bin/python3", "-c", Self.attacker, socket,
            ],
            input: .pipe,
            output: .pipe
        ).start()
        defer { attack.stop() }
        let ready = try #require(Self.firstLine(of: attack), "the attacker ended before it was ready")
        let peak = try SecurityEndToEndTests.memoryKiB(pid, "VmHWM")
        let descriptors = openDescriptors(pid)
        // While the attacker holds everything it could open, staff are answered (a daemon out of
        // descriptors never accepts the connection, and a connect to its full queue blocks: 30 s).
        let status = try Command(
            "/usr/bin/timeout",
            [
                "-k", "5", "30", kiosk.binaries.appendingPathComponent("muster").path, "status", "--config",
                kiosk.configPath,
            ]
        ).run()
        print(
            "screen's user flood (\(ready)): musterd RSS \(rssBefore / 1024) MiB before, peak \(peak / 1024) MiB; "
                + "fds \(descriptorsBefore) before, \(descriptors) during"
        )
        #expect(daemon.isRunning, "musterd died: \(kiosk.daemonLog().suffix(2_000))")
        #expect(peak - rssBefore < 32 * 1024, "RSS peaked \((peak - rssBefore) / 1024) MiB above its start")
        try #require(status.status == 0, "staff status was not answered (exit \(status.status)): \(status.errorOutput)")
        // What the daemon keeps open settles at the attacker's share, 16 connections
        // (`ControlLimits.connectionsPerPeer`); before the limits, 2,025: every descriptor it had.
        try waitUntil("the daemon holds no more than the screen's user's share", timeout: 10) {
            openDescriptors(pid) - descriptorsBefore <= 16 + 4
        }
        // Nothing was done on the attacker's behalf.
        #expect(try kiosk.status()["checkedIn"] as? Int == 0)

        // Once it is gone, the screen's user is served again: an honest check-in goes through.
        try attack.input?.close()
        attack.waitUntilExit()
        let honest = try ControlPolicyEndToEndTests.asScreenUser(
            "/usr/bin/python3",
            ["-c", ControlPolicyEndToEndTests.client, socket, #"{"op":"checkin","query":"MUS-0001"}"#]
        )
        #expect(honest.stdout.contains(#""outcome":"checked_in""#), "\(honest.stdout) \(honest.stderr)")
        #expect(try kiosk.status()["checkedIn"] as? Int == 1)
        #expect(daemon.isRunning)
    }

    /// The first line `process` prints, or nil if it ends first.
    static func firstLine(of process: RunningProcess) -> String? {
        var bytes: [UInt8] = []
        while let output = process.output {
            let chunk = output.availableData
            if chunk.isEmpty { return nil }
            bytes += chunk
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                return String(decoding: bytes[..<newline], as: UTF8.self)
            }
        }
        return nil
    }
}
