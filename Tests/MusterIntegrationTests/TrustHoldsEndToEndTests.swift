import Foundation
import MusterTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Rules that used to stop holding without a word (issue 32): a door whose config names another
/// location than its certificate, a replica other users could read, a zone that names no kiosk.
/// Each test runs the built `musterd` and `muster` and ends with the honest set-up working.
@Suite("Trust holds end to end", .serialized)
struct TrustHoldsEndToEndTests {
    static let list = (1...6).map { "p\($0)@example.com,First\($0),Last\($0),Co,T-\($0)" }.joined(separator: "\n")

    /// Imports six attendees into "Expo" on a started kiosk.
    static func importList(_ kiosk: KioskHarness) throws {
        let file = try kiosk.write("list.csv", "email,first_name,last_name,company,ticket\n" + list + "\n")
        let imported = try kiosk.muster(["import", file, "--campaign", "Expo", "--organizer-key", kiosk.organizerKey])
        #expect(imported.status == 0, "import: \(imported.stderr)")
    }

    @Test("a config location that is not the certificate's: musterd refuses, doctor and status fail")
    func aMovedDoorIsRefused() throws {
        let kiosk = try KioskHarness(location: "Main entrance")
        try kiosk.setLocation("Hall B")
        let refused = try kiosk.startRefused()
        #expect(refused.status == 78, "musterd must refuse to start: \(refused.log)")
        #expect(refused.log.contains("'Hall B'") && refused.log.contains("'Main entrance'"))
        #expect(refused.log.contains("enroll"), "the message names the fix: \(refused.log)")
        #expect(!FileManager.default.fileExists(atPath: kiosk.socketPath), "no control socket was opened")

        let doctor = try kiosk.muster(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("FAIL  enrollment") && doctor.stdout.contains("'Hall B'"), "\(doctor.stdout)")
        let status = try kiosk.muster(["status"])
        #expect(status.status != 0, "status fails on the mismatch")
        #expect((status.stdout + status.stderr).contains("'Main entrance'"), "\(status.stdout)\(status.stderr)")

        // The honest config: the daemon starts and the door works.
        try kiosk.setLocation("Main entrance")
        try kiosk.start()
        defer { try? kiosk.stop() }
        try Self.importList(kiosk)
        #expect(try kiosk.muster(["lock", "Expo", "--organizer-key", kiosk.organizerKey]).status == 0)
        #expect(try kiosk.muster(["checkin", "p1@example.com"]).status == 0)
        #expect(try kiosk.muster(["doctor"]).stdout.contains("ok    enrollment"))
    }

    @Test("a config without a location: the door enforces its certificate's zone")
    func theCertificatesLocationIsTheZone() throws {
        let kiosk = try KioskHarness(location: "Main entrance")
        try kiosk.setLocation("")
        try kiosk.start()
        defer { try? kiosk.stop() }
        try Self.importList(kiosk)
        let lock = try kiosk.muster([
            "lock", "Expo", "--zone", "Main entrance=1", "--entries", "once", "--organizer-key", kiosk.organizerKey,
        ])
        #expect(lock.status == 0)
        #expect(try kiosk.muster(["checkin", "p1@example.com"]).status == 0, "the honest first entry")
        let full = try kiosk.muster(["checkin", "p2@example.com", "--json"])
        #expect(full.status == 4 && full.stdout.contains("\"reason\" : \"zone_full\""), "\(full.stdout)")
        #expect(try kiosk.muster(["checkout", "p1@example.com"]).status == 0)
        let again = try kiosk.muster(["checkin", "p1@example.com", "--json"])
        #expect(again.stdout.contains("\"reason\" : \"entries_used_up\""), "\(again.stdout)")
        let occupancy = try kiosk.muster(["occupancy", "--json"]).stdout
        #expect(occupancy.contains("Main entrance") && !occupancy.contains("\"inside\" : 2"), "\(occupancy)")
    }

    @Test("under umask 022 the replica is 0600; loose modes keep musterd from starting and fail doctor")
    func looseModesAreRefused() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let kiosk = try KioskHarness()
        let state = kiosk.directory.appendingPathComponent("state").path
        let replica = state + "/replica.sqlite"
        try kiosk.start()
        try Self.importList(kiosk)
        for path in [replica, replica + "-wal", replica + "-shm"] where FileManager.default.fileExists(atPath: path) {
            #expect(try FilePermissions.mode(of: path) == 0o600, "\(path)")
        }
        try kiosk.stop()

        try FilePermissions.set(0o755, of: state)
        let openDirectory = try kiosk.startRefused()
        #expect(openDirectory.status == 78, "a state directory others can enter: \(openDirectory.log)")
        #expect(openDirectory.log.contains("chmod 700 \(state)"), "\(openDirectory.log)")
        #expect(try kiosk.muster(["doctor"]).stdout.contains("FAIL  state directory"))
        try FilePermissions.set(0o700, of: state)

        try FilePermissions.set(0o644, of: replica)
        let openReplica = try kiosk.startRefused()
        #expect(openReplica.status == 78, "a replica others can read: \(openReplica.log)")
        #expect(openReplica.log.contains("chmod 600 \(replica)"), "\(openReplica.log)")
        let doctor = try kiosk.muster(["doctor"]).stdout
        #expect(doctor.contains("FAIL  state directory") && doctor.contains(replica), "\(doctor)")
        #expect(try FilePermissions.mode(of: replica) == 0o644, "musterd changed nothing it refused")

        // The doctor's read-only look may have made a -wal and -shm with the replica's loose mode:
        // the fix covers every file it names.
        for path in [replica, replica + "-wal", replica + "-shm"] where FileManager.default.fileExists(atPath: path) {
            try FilePermissions.set(0o600, of: path)
        }
        #expect(!(try kiosk.muster(["doctor"]).stdout.contains("FAIL  state directory")))
        try kiosk.start()
        defer { try? kiosk.stop() }
        #expect(try kiosk.status()["attendees"] as? Int == 6, "the honest restart serves the same replica")
    }

    @Test("muster lock warns about a zone no kiosk stands in, naming the roster's locations")
    func aZoneThatNamesNoKioskIsWarned() throws {
        let kiosk = try KioskHarness(location: "Main entrance")
        try kiosk.start()
        defer { try? kiosk.stop() }
        try Self.importList(kiosk)
        let typo = try kiosk.muster([
            "lock", "Expo", "--zone", "Main entrence=2", "--organizer-key", kiosk.organizerKey,
        ])
        #expect(typo.status == 0, "the lock is still signed: a kiosk may be enrolled there later")
        let said = typo.stdout + typo.stderr
        #expect(said.contains("'Main entrence' names no kiosk"), "\(said)")
        #expect(said.contains("Main entrance"), "the roster's locations are named: \(said)")
        let honest = try kiosk.muster([
            "lock", "Expo", "--zone", "Main entrance=2", "--organizer-key", kiosk.organizerKey,
        ])
        #expect(honest.status == 0)
        #expect(!(honest.stdout + honest.stderr).contains("names no kiosk"), "\(honest.stdout)\(honest.stderr)")
    }
}

extension KioskHarness {
    /// Rewrites the config's `location` line ("" leaves the kiosk to its certificate).
    func setLocation(_ location: String) throws {
        let config = try String(contentsOfFile: configPath, encoding: .utf8)
        let lines = config.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("location = ") ? "location = \"\(location)\"" : String(line)
        }
        try lines.joined(separator: "\n").write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// Starts `musterd` expecting it to refuse: its exit status and log once it has exited (a daemon
    /// still running after 20 s is killed and reported as status -1).
    func startRefused() throws -> (status: Int32, log: String) {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let process = try Command(
            binaries.appendingPathComponent("musterd").path,
            ["--config", configPath, "--log-level", "debug"],
            output: .file(logPath)
        ).start()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            process.stop()
            return (-1, daemonLog())
        }
        return (process.terminationStatus, daemonLog())
    }
}
