import Foundation
import MusterTestSupport
import Testing

/// The control socket's policy with the real binaries (issue 14): a real `musterd` in a user namespace
/// that maps only root, as `PrivateUsers=yes` in musterd.service does, and the real `muster kiosk`
/// run as another user by `setpriv`, as `muster-kiosk@.service` runs it as `muster-screen`.
@Suite("Control socket policy, end to end", .enabled(if: geteuid() == 0))
struct ControlPolicyEndToEndTests {
    /// The screen's stand-in: the system user `daemon` (uid and gid 1), which this namespace does not map.
    static let screenUser = "daemon"
    static let screenID: UInt32 = 1

    static let attendees = """
        email,first_name,last_name,company,ticket
        ada.lovelace@example.com,Ada,Lovelace,Analytical Engines,MUS-0001
        grace@example.com,Grace,Hopper,US Navy,MUS-0002

        """

    /// A client run as the screen's user.
    static let client = TestSupport.controlLineClient

    static func asScreenUser(
        _ executable: String,
        _ arguments: [String],
        input: String? = nil
    ) throws
        -> KioskHarness.Result
    {
        try runProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=\(screenID)", "--regid=\(screenID)", "--clear-groups", executable] + arguments,
            environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": "/"],
            input: input
        ).result
    }

    @Test("the screen's user, seen through PrivateUsers, checks in with muster kiosk and is refused staff requests")
    func screenUserThroughAPrivateUserNamespace() throws {
        let kiosk = try KioskHarness()
        try kiosk.appendToConfig("\n[screen]\nuser = \"\(Self.screenUser)\"\n")
        // musterd as PrivateUsers=yes runs it: a user namespace in which only root is mapped.
        FileManager.default.createFile(atPath: kiosk.logPath, contents: nil)
        let daemon = try Command(
            "/usr/bin/unshare",
            [
                "--user", "--map-root-user", kiosk.binaries.appendingPathComponent("musterd").path,
                "--config", kiosk.configPath, "--log-level", "debug",
            ],
            output: .file(kiosk.logPath)
        ).start()
        kiosk.daemon = daemon  // the harness kills it when it goes away
        defer { try? kiosk.stop() }
        try waitUntil("musterd answers on its control socket", timeout: 20) {
            guard daemon.isRunning else { throw KioskHarness.HarnessError(description: kiosk.daemonLog()) }
            return (try? kiosk.muster(["status"]).status) == 0
        }
        // Root is mapped: staff, as before.
        let csv = try kiosk.write("attendees.csv", Self.attendees)
        #expect(
            try kiosk.muster(["import", csv, "--campaign", "DevConf", "--organizer-key", kiosk.organizerKey]).status
                == 0
        )
        #expect(try kiosk.muster(["lock", "DevConf", "--organizer-key", kiosk.organizerKey]).status == 0)
        #expect(kiosk.daemonLog().contains("screen_uid=65534"), "the unmapped screen user is the overflow id")

        // The socket's group lets the screen's user in, as the kiosk unit's SupplementaryGroups=muster does.
        let socket = kiosk.socketPath
        for path in [(socket as NSString).deletingLastPathComponent, socket] {
            #expect(chown(path, 0, Self.screenID) == 0)
        }

        // The real screen, as that user: a check-in goes through.
        let muster = kiosk.binaries.appendingPathComponent("muster").path
        let screen = try Self.asScreenUser(muster, ["kiosk", "--config", kiosk.configPath], input: "MUS-0001\ny\n\n")
        #expect(screen.status == 0, "\(screen.stderr)")
        #expect(screen.stdout.contains("Found: Ada L."))
        #expect(screen.stdout.contains("Welcome, Ada!"))
        #expect(try kiosk.status()["checkedIn"] as? Int == 1)

        // The same user may not send staff requests, and is told only what the screen shows.
        let requests = [
            #"{"op":"checkout","query":"ada.lovelace@example.com"}"#, #"{"op":"status"}"#,
            #"{"op":"checkin","query":"MUS-0002"}"#,
        ]
        let raw = try Self.asScreenUser("/usr/bin/python3", ["-c", Self.client, socket] + requests)
        #expect(raw.status == 0, "\(raw.stderr)")
        let answers = raw.stdout.split(separator: "\n").map(String.init)
        #expect(answers.count == 3)
        #expect(answers.prefix(2).allSatisfy { $0.contains(#""errorCode":"forbidden""#) }, "\(answers)")
        #expect(answers.last?.contains(#""outcome":"checked_in""#) == true)
        #expect(answers.last?.contains("US Navy") == false && answers.last?.contains("Hopper") == false)
        #expect(try kiosk.status()["checkedIn"] as? Int == 2, "Ada is still in: the checkout was refused")
        let refusals = kiosk.daemonLog().components(separatedBy: "control request refused").count - 1
        #expect(refusals == 1, "one warning for the connection, not one per request")
    }
}
