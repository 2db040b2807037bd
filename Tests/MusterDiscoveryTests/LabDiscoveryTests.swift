import Foundation
import Logging
import MusterTestSupport
import Synchronization
import Testing

@testable import MusterDiscovery

/// AvahiDiscovery against a real avahi-daemon, inside a kiosk of `scripts/lab`. Skipped elsewhere.
///
/// ```sh
/// scripts/lab up 3 --no-daemon
/// V=$(sed -n 's/^venue_id = "\(.*\)"$/\1/p' .lab/venue/venue.toml)
/// scripts/lab exec 2 avahi-publish -s muster-k2 _muster._tcp 7420 v=1 venue=$V fp=k2 &
/// scripts/lab exec 3 avahi-publish -s muster-k3 _muster._tcp 7420 v=1 venue=$V fp=k3 &
/// scripts/lab exec 1 env MUSTER_LAB_EXPECT=k2,k3 swift test --skip-build --filter LabDiscoveryTests
/// ```
///
/// It checks that the kiosks named in `MUSTER_LAB_EXPECT` (fingerprints) appear with this venue's
/// id, that nothing of another venue or with this kiosk's fingerprint does, that this kiosk's own announcement is visible to avahi-browse, that
/// restarting the kiosk's avahi-daemon is reported and recovered from (republished, peers kept),
/// that cancelling `run()` withdraws the announcement, and that a kiosk whose D-Bus and
/// avahi-daemon start after it waits for them. `MUSTER_LAB_SERVICE_NAME` forces the published
/// name, e.g. one already taken, to exercise the collision rename. Only the kiosk's own daemons
/// (private to its namespaces) are stopped and restarted.
@Suite("Lab discovery (real avahi-daemon)", .enabled(if: LabEnvironment.current != nil), .serialized)
struct LabDiscoveryTests {
    @Test(.timeLimit(.minutes(2)))
    func discoversPublishesAndSurvivesADaemonRestart() async throws {
        let lab = try #require(LabEnvironment.current)
        try Self.ensureDaemons(lab)
        defer { try? Self.ensureDaemons(lab) }
        let ownFingerprint = lab.fingerprint
        let (log, consumer, runner) = Self.startDiscovery(lab, port: 7499, serviceName: lab.serviceName)
        defer { runner.cancel() }

        // 1. The expected kiosks appear, with this venue, and nothing else does.
        try await log.wait("daemonAvailable") { $0.contains(.daemonAvailable) }
        try await log.wait("peers \(lab.expected.sorted())") { lab.expected.isSubset(of: Self.current(in: $0)) }
        for peer in Self.peers(in: log.events) {
            print(
                "lab: appeared \(peer.serviceName) fp=\(peer.fingerprint) at \(peer.host):\(peer.port) v\(peer.protocolVersion)"
            )
            #expect(peer.venueID == lab.venue)
            #expect(peer.fingerprint != ownFingerprint)
        }

        // 2. This kiosk is published (under its name, or Avahi's alternative after a collision).
        let published = try await Self.waitForOwnService(fingerprint: ownFingerprint, present: true)
        print("lab: published as \(published)")

        // 3. avahi-daemon goes away and comes back.
        let before = log.events.count
        try Self.shell("avahi-daemon", "-k")
        try await log.wait("daemonUnavailable") {
            $0.dropFirst(before).contains { if case .daemonUnavailable = $0 { true } else { false } }
        }
        try Self.startDaemon("avahi-daemon", "-D", "-f", lab.avahiConfig)
        try await log.wait("daemonAvailable again") { $0.dropFirst(before).contains(.daemonAvailable) }
        let republished = try await Self.waitForOwnService(fingerprint: ownFingerprint, present: true)
        print("lab: republished as \(republished) after the restart")
        try await Task.sleep(for: .seconds(3))  // let the new browse settle
        let afterRestart = Array(log.events.dropFirst(before))
        print("lab: events across the restart: \(afterRestart)")
        #expect(!afterRestart.contains { if case .disappeared = $0 { true } else { false } })

        // 4. Cancelling run() withdraws the announcement and ends the event stream.
        runner.cancel()
        try await runner.value
        await consumer.value
        _ = try await Self.waitForOwnService(fingerprint: ownFingerprint, present: false)
        print("lab: withdrawn after cancellation")
    }

    /// A kiosk boots before its system bus and avahi-daemon: discovery reports the daemon missing,
    /// retries with backoff, and publishes and browses once both are up.
    @Test(.timeLimit(.minutes(2)))
    func waitsForTheBusAndTheDaemonToStart() async throws {
        let lab = try #require(LabEnvironment.current)
        try Self.ensureDaemons(lab)
        defer { try? Self.ensureDaemons(lab) }
        try Self.shell("avahi-daemon", "-k")
        try await Self.waitUntil("avahi-daemon has stopped") { (try? Self.shell("avahi-daemon", "-c")) == nil }
        let busPID = try #require(Self.busPID)
        try Self.shell("kill", busPID)
        try await Self.waitUntil("the system bus has stopped") { Self.busPID == nil }

        let ownFingerprint = lab.fingerprint
        let (log, consumer, runner) = Self.startDiscovery(lab, port: 7498)
        defer { runner.cancel() }

        try await log.wait("daemonUnavailable") {
            $0.first.map { if case .daemonUnavailable = $0 { true } else { false } } ?? false
        }
        try await Task.sleep(for: .seconds(2))  // a few failed attempts with backoff
        #expect(log.events.count == 1, "one daemonUnavailable however many attempts: \(log.events)")

        try Self.ensureDaemons(lab)
        try await log.wait("daemonAvailable") { $0.contains(.daemonAvailable) }
        try await log.wait("peers \(lab.expected.sorted())") { lab.expected.isSubset(of: Self.current(in: $0)) }
        _ = try await Self.waitForOwnService(fingerprint: ownFingerprint, present: true)

        runner.cancel()
        try await runner.value
        await consumer.value
        _ = try await Self.waitForOwnService(fingerprint: ownFingerprint, present: false)
    }

    /// This kiosk's discovery (debug logging to stderr) on `port`, running: the log collecting its
    /// events, the task consuming them, and the task running it.
    static func startDiscovery(
        _ lab: LabEnvironment,
        port: Int,
        serviceName: String? = nil
    ) -> (EventLog, Task<Void, Never>, Task<Void, any Error>) {
        var logger = Logger(label: "lab-discovery") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .debug
        let discovery = AvahiDiscovery(
            configuration: DiscoveryConfiguration(
                serviceName: serviceName,
                port: port,
                venueID: lab.venue,
                fingerprint: lab.fingerprint,
                protocolVersion: 1
            ),
            logger: logger
        )
        let log = EventLog()
        let consumer = Task { for await event in discovery.events { log.append(event) } }
        return (log, consumer, Task { try await discovery.run() })
    }

    /// The fingerprints of the peers known after `events`: appeared and not disappeared since.
    static func current(in events: [DiscoveryEvent]) -> Set<String> {
        var known: [String: String] = [:]
        for event in events {
            switch event {
            case .appeared(let peer): known[peer.serviceName] = peer.fingerprint
            case .disappeared(let name): known[name] = nil
            default: break
            }
        }
        return Set(known.values)
    }

    /// The pid of this kiosk's system bus, if it runs.
    static var busPID: String? {
        guard let text = try? String(contentsOfFile: "/run/dbus/pid", encoding: .utf8) else { return nil }
        let pid = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // A zombie is gone too (pid 1 reaps it when it gets round to it).
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first, state != "Z"
        else { return nil }
        return pid
    }

    /// Starts this kiosk's system bus and avahi-daemon if they are down (as `scripts/lab` does), so
    /// one failed test does not leave the next without them.
    static func ensureDaemons(_ lab: LabEnvironment) throws {
        if (try? shell("avahi-daemon", "-c")) != nil { return }
        if busPID == nil {
            // The bus ran as messagebus and could not remove its root-owned pid file; a new bus
            // refuses to start over it.
            try? FileManager.default.removeItem(atPath: "/run/dbus/pid")
            try startDaemon("dbus-daemon", "--system", "--fork")
        }
        try startDaemon("avahi-daemon", "-D", "-f", lab.avahiConfig)
    }

    static func waitUntil(_ what: String, _ condition: () throws -> Bool) async throws {
        for _ in 0..<100 {
            if try condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("timed out waiting until \(what)")
    }

    static func peers(in events: [DiscoveryEvent]) -> [DiscoveredPeer] {
        events.compactMap { if case .appeared(let peer) = $0 { peer } else { nil } }
    }

    /// Waits until avahi-browse in this kiosk does (or does not) list a service with this
    /// fingerprint; returns its name.
    static func waitForOwnService(fingerprint: String, present: Bool) async throws -> String {
        for _ in 0..<60 {
            let lines = try shell("avahi-browse", "-rpt", MusterTXTRecord.serviceType).split(separator: "\n")
            let match = lines.first { $0.hasPrefix("=") && $0.contains("\"fp=\(fingerprint)\"") }
            if present, let match { return String(match.split(separator: ";")[3]) }
            if !present && match == nil { return "" }
            try await Task.sleep(for: .milliseconds(500))
        }
        throw TestFailure("avahi-browse \(present ? "never listed" : "still lists") fp=\(fingerprint)")
    }

    @discardableResult
    static func shell(_ arguments: String...) throws -> String {
        try LabShell.run(arguments)
    }

    /// Starts a daemon that forks into the background; its output must not hold a pipe of ours.
    static func startDaemon(_ arguments: String...) throws {
        try LabShell.run(arguments, capture: false)
    }
}

/// The lab kiosk this test runs in, from the environment `scripts/lab exec` sets.
struct LabEnvironment {
    let kiosk: String
    let venue: String
    let expected: Set<String>
    let avahiConfig: String
    let serviceName: String?
    /// This kiosk's fingerprint in every lab test, so one test's announcement is never a peer of the next.
    var fingerprint: String { "lab-k\(kiosk)-test" }

    static var current: LabEnvironment? {
        let env = ProcessInfo.processInfo.environment
        guard let kiosk = env["MUSTER_LAB_KIOSK"], let dir = env["MUSTER_LAB_DIR"], let venue = env["MUSTER_LAB_VENUE"],
            !venue.isEmpty
        else { return nil }
        let expected = Set((env["MUSTER_LAB_EXPECT"] ?? "").split(separator: ",").map(String.init))
        return LabEnvironment(
            kiosk: kiosk,
            venue: venue,
            expected: expected,
            avahiConfig: "\(dir)/k\(kiosk)/avahi-daemon.conf",
            serviceName: env["MUSTER_LAB_SERVICE_NAME"]
        )
    }
}

/// The lab's failures are the test kit's (LabShell.swift throws them under this name).
typealias LabError = TestFailure

/// Events received so far, shared between the consumer task and the test.
final class EventLog: Sendable {
    private let storage = Mutex<[DiscoveryEvent]>([])

    var events: [DiscoveryEvent] { storage.withLock { $0 } }

    func append(_ event: DiscoveryEvent) {
        storage.withLock { $0.append(event) }
    }

    func wait(_ what: String, seconds: Int = 30, until condition: ([DiscoveryEvent]) -> Bool) async throws {
        for _ in 0..<(seconds * 10) {
            if condition(events) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("timed out waiting for \(what); events: \(events)")
    }
}
