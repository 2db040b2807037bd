import Foundation
import MusterControl
import MusterDaemon
import MusterRules
import MusterStore
import MusterTestSupport
import Testing

@testable import MusterClient

/// `muster doctor`'s rules, against a fake machine (and real files for enrollment).
@Suite struct DoctorTests {
    static func probe(
        sockets: Set<String> = [],
        interfaces: [(name: String, multicast: Bool)] = [("eth0", true)],
        now: UInt64 = 1_790_000_000_000,
        writable: Bool = true,
        free: UInt64? = 1 << 30
    ) -> Doctor.Probe {
        Doctor.Probe(
            socketAnswers: { sockets.contains($0) },
            interfaces: { interfaces },
            nowMillis: { now },
            writable: { _ in writable },
            freeBytes: { _ in free }
        )
    }

    /// Below the reserve the daemon stores no more of its peers' deltas; the doctor says so before.
    @Test func aNearlyFullDiskIsNamedBeforeAndAfterPeersStop() throws {
        let directory = try TemporaryDirectory("muster-doctor")
        defer { directory.remove() }
        let doctor = { (free: UInt64?) in Doctor(config: Self.config(directory), probe: Self.probe(free: free)) }
        #expect(doctor(1 << 30).diskSpace() == .ok("disk space", "1024 MiB free"))
        let low = doctor(Replica.peerReserveBytes * 2).diskSpace()
        #expect(low.verdict == .warning)
        #expect(low.detail.contains("below 16 MiB it stops storing its peers' check-ins"))
        let stopped = doctor(Replica.peerReserveBytes - 1).diskSpace()
        #expect(stopped.detail.contains("stores no more of its peers'"))
        #expect(doctor(nil).diskSpace().verdict == .warning)
    }

    /// A kiosk that works alone is a warning that names what it cannot hear (issue 37).
    @Test func aKioskWorkingAloneIsAWarningThatNamesWhatItCannotHear() throws {
        let directory = try TemporaryDirectory("muster-doctor")
        defer { directory.remove() }
        let doctor = Doctor(config: Self.config(directory), probe: Self.probe())
        let zone = doctor.alone(Solitude(sinceMillis: 0, unheardZone: "Hall B"))
        #expect(zone.verdict == .warning && zone.name == "alone")
        #expect(zone.detail.hasPrefix("working alone since ") && zone.detail.hasSuffix(" — Hall B unheard"))
        #expect(zone.advice.contains("other kiosks of this zone"))
        let nobody = doctor.alone(Solitude(sinceMillis: 0, unheardZone: nil))
        #expect(nobody.detail.hasSuffix(" — no other kiosk heard") && nobody.advice.contains("network"))
    }

    /// Check-ins only this kiosk holds are a warning once they are older than a peer takes to be known
    /// to hold them; the last seconds' are on their way and say nothing.
    @Test func checkInsSavedHereOnlyWarnOnceTheyAreOlderThanSyncTakes() throws {
        let directory = try TemporaryDirectory("muster-doctor")
        defer { directory.remove() }
        let now: UInt64 = 1_790_000_000_000
        let doctor = Doctor(config: Self.config(directory), probe: Self.probe(now: now))
        let old = try #require(doctor.savedHereOnly(SavedHereOnly(checkIns: 2, records: 3, oldestMillis: now - 20_000)))
        #expect(old.verdict == .warning && old.name == "saved here only")
        #expect(old.detail.hasPrefix("2 check-in(s) since ") && old.detail.contains("(3 record(s) in all)"))
        #expect(old.advice.contains("another kiosk"))
        #expect(doctor.savedHereOnly(SavedHereOnly(checkIns: 1, records: 1, oldestMillis: now - 5_000)) == nil)
        #expect(doctor.savedHereOnly(SavedHereOnly(checkIns: 0, records: 2, oldestMillis: nil)) == nil)
    }

    static func config(_ directory: TemporaryDirectory) -> KioskConfig {
        var config = KioskConfig()
        config.name = "Hall A"
        config.stateDirectory = directory.file("state")
        config.venue = directory.file("venue.toml")
        config.controlSocket = directory.file("control.sock")
        return config
    }

    static func verdict(_ checks: [DoctorCheck], _ name: String) -> DoctorCheck.Verdict? {
        checks.first { $0.name == name }?.verdict
    }

    @Test func aFreshBoxIsToldToEnrollAndStartTheDaemon() throws {
        let directory = try TemporaryDirectory("muster-doctor")
        defer { directory.remove() }
        let config = Self.config(directory)
        try FileManager.default.createDirectory(
            atPath: config.stateDirectory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let checks = Doctor(config: config, probe: Self.probe(sockets: [Doctor.avahiSocket])).run()
        #expect(Self.verdict(checks, "state directory") == .ok)
        #expect(Self.verdict(checks, "enrollment") == .failed)
        #expect(checks.first { $0.name == "enrollment" }?.advice.contains("muster join-request") == true)
        #expect(Self.verdict(checks, "musterd") == .failed)
        #expect(Self.verdict(checks, "avahi-daemon") == .ok)
        #expect(Self.verdict(checks, "multicast") == .ok)
        #expect(Self.verdict(checks, "clock") == .ok)
        #expect(Self.verdict(checks, "campaign lock") == .warning)
    }

    @Test func venueProblemsAreNamed() throws {
        let directory = try TemporaryDirectory("muster-doctor")
        defer { directory.remove() }
        var config = Self.config(directory)
        let doctor = { (probe: Doctor.Probe) in Doctor(config: config, probe: probe) }
        // No state directory; then one that is not writable; then a revoked kiosk.
        #expect(doctor(Self.probe()).stateDirectory().verdict == .failed)
        try FileManager.default.createDirectory(atPath: config.stateDirectory, withIntermediateDirectories: true)
        #expect(doctor(Self.probe(writable: false)).stateDirectory().verdict == .failed)
        try "revoked".write(toFile: config.revokedMarkerPath, atomically: true, encoding: .utf8)
        #expect(doctor(Self.probe()).stateDirectory().advice.contains("enroll it anew"))
        // Stopped by a revocation that may not wipe it: the marker's reason, and how to go on.
        try FileManager.default.removeItem(atPath: config.revokedMarkerPath)
        try "stopped at 2026-11-27T20:00:00Z: revoked by an organizer device\u{1B}[2J\n".write(
            toFile: config.stoppedMarkerPath,
            atomically: true,
            encoding: .utf8
        )
        let stopped = doctor(Self.probe()).stateDirectory()
        #expect(stopped.verdict == .failed)
        #expect(stopped.detail.contains("kept all its data") && stopped.detail.contains("organizer device"))
        #expect(!stopped.detail.contains("\u{1B}"), "the marker's text is sanitized")
        #expect(stopped.advice.contains(config.stoppedMarkerPath))
        // avahi-daemon not answering matters only with discovery on.
        #expect(doctor(Self.probe()).avahi().verdict == .failed)
        config.discovery = false
        #expect(doctor(Self.probe()).avahi().verdict == .ok)
        // No interface, or none with multicast.
        #expect(doctor(Self.probe(interfaces: [])).multicast().verdict == .failed)
        let noMulticast = doctor(Self.probe(interfaces: [("wlan0", false)])).multicast()
        #expect(noMulticast.verdict == .failed && noMulticast.detail.contains("wlan0"))
        // A clock that was never set (1970).
        #expect(doctor(Self.probe(now: 3_600_000)).clock(replica: nil).verdict == .failed)
    }

    @Test func anEnrolledKioskPassesTheEnrollmentCheck() throws {
        let directory = try TemporaryDirectory("muster-doctor")
        defer { directory.remove() }
        let config = Self.config(directory)
        let (keyPath, venuePath) = try VenueSetup.create(
            directory: directory.file("organizer"),
            name: "Venue",
            withPassphrase: false,
            environment: [:]
        )
        let request = try Enrollment.request(config: config).request
        let bundle = try Enrollment.enroll(request, organizerKeyPath: keyPath, venuePath: venuePath, nowMillis: 1)
        _ = try Enrollment.join(bundle, config: config, force: false)
        let check = Doctor(config: config, probe: Self.probe()).enrollment()
        #expect(check.verdict == .ok)
        #expect(check.detail.contains("'Hall A'"))
    }
}

/// Issue 32: a door whose config names another location than its certificate, and a state
/// directory or replica other users can read, fail the doctor with the fix.
@Suite struct DoctorTrustTests {
    @Test func aConfigLocationThatIsNotTheCertificatesFailsEnrollment() throws {
        let directory = try TemporaryDirectory("muster-doctor")
        defer { directory.remove() }
        var config = DoctorTests.config(directory)
        config.location = "Main entrance"
        let (keyPath, venuePath) = try VenueSetup.create(
            directory: directory.file("organizer"),
            name: "Venue",
            withPassphrase: false,
            environment: [:]
        )
        let request = try Enrollment.request(config: config).request
        let bundle = try Enrollment.enroll(request, organizerKeyPath: keyPath, venuePath: venuePath, nowMillis: 1)
        _ = try Enrollment.join(bundle, config: config, force: false)
        #expect(Doctor(config: config, probe: DoctorTests.probe()).enrollment().verdict == .ok)
        config.location = "Hall B"
        let moved = Doctor(config: config, probe: DoctorTests.probe()).enrollment()
        #expect(moved.verdict == .failed)
        #expect(moved.detail.contains("'Hall B'") && moved.detail.contains("'Main entrance'"), "\(moved.detail)")
        #expect(moved.advice.contains("enroll"), "\(moved.advice)")
    }

    @Test func looseModesFailTheStateDirectoryCheck() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let directory = try TemporaryDirectory("muster-doctor")
        defer { directory.remove() }
        let config = DoctorTests.config(directory)
        let doctor = Doctor(config: config, probe: DoctorTests.probe())
        try FileManager.default.createDirectory(atPath: config.stateDirectory, withIntermediateDirectories: true)
        try FilePermissions.set(0o755, of: config.stateDirectory)
        let open = doctor.stateDirectory()
        #expect(open.verdict == .failed)
        #expect(open.advice.contains("chmod 700 \(config.stateDirectory)"), "\(open.advice)")
        try FilePermissions.set(0o700, of: config.stateDirectory)
        #expect(doctor.stateDirectory().verdict == .ok)
        _ = FileManager.default.createFile(atPath: config.replicaPath, contents: Data())
        try FilePermissions.set(0o644, of: config.replicaPath)
        let readable = doctor.stateDirectory()
        #expect(readable.verdict == .failed)
        #expect(readable.detail.contains(config.replicaPath), "\(readable.detail)")
        #expect(readable.advice.contains("chmod 600 \(config.replicaPath)"), "\(readable.advice)")
        try FilePermissions.set(0o600, of: config.replicaPath)
        #expect(doctor.stateDirectory().verdict == .ok)
    }
}
