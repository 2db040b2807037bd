import Foundation
import Logging
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
/// id, that nothing else does, that this kiosk's own announcement is visible to avahi-browse, that
/// restarting the kiosk's avahi-daemon is reported and recovered from (republished, peers kept),
/// and that cancelling `run()` withdraws the announcement. `MUSTER_LAB_SERVICE_NAME` forces the
/// published name, e.g. one already taken, to exercise the collision rename.
@Suite("Lab discovery (real avahi-daemon)", .enabled(if: LabEnvironment.current != nil), .serialized)
struct LabDiscoveryTests {
    @Test(.timeLimit(.minutes(2)))
    func discoversPublishesAndSurvivesADaemonRestart() async throws {
        let lab = try #require(LabEnvironment.current)
        var logger = Logger(label: "lab-discovery") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .debug
        let ownFingerprint = "lab-k\(lab.kiosk)-test"
        let discovery = AvahiDiscovery(
            configuration: DiscoveryConfiguration(
                serviceName: lab.serviceName, port: 7499, venueID: lab.venue, fingerprint: ownFingerprint,
                protocolVersion: 1),
            logger: logger)
        let log = EventLog()
        let consumer = Task { for await event in discovery.events { log.append(event) } }
        let runner = Task { try await discovery.run() }

        // 1. The expected kiosks appear, with this venue, and nothing else does.
        try await log.wait("daemonAvailable") { $0.contains(.daemonAvailable) }
        try await log.wait("peers \(lab.expected.sorted())") { Set(Self.peers(in: $0).map(\.fingerprint)) == lab.expected }
        for peer in Self.peers(in: log.events) {
            print("lab: appeared \(peer.serviceName) fp=\(peer.fingerprint) at \(peer.host):\(peer.port) v\(peer.protocolVersion)")
            #expect(peer.venueID == lab.venue)
            #expect(peer.fingerprint != ownFingerprint)
        }

        // 2. This kiosk is published (under its name, or Avahi's alternative after a collision).
        let published = try await Self.waitForOwnService(fingerprint: ownFingerprint, present: true)
        print("lab: published as \(published)")

        // 3. avahi-daemon goes away and comes back.
        let before = log.events.count
        try Self.shell("avahi-daemon", "-k")
        try await log.wait("daemonUnavailable") { $0.dropFirst(before).contains { if case .daemonUnavailable = $0 { true } else { false } } }
        try Self.shell("avahi-daemon", "-D", "-f", lab.avahiConfig)
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
        throw LabError("avahi-browse \(present ? "never listed" : "still lists") fp=\(fingerprint)")
    }

    @discardableResult
    static func shell(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LabError("\(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// The lab kiosk this test runs in, from the environment `scripts/lab exec` sets.
struct LabEnvironment {
    let kiosk: String
    let venue: String
    let expected: Set<String>
    let avahiConfig: String
    let serviceName: String?

    static var current: LabEnvironment? {
        let env = ProcessInfo.processInfo.environment
        guard let kiosk = env["MUSTER_LAB_KIOSK"], let dir = env["MUSTER_LAB_DIR"], let venue = env["MUSTER_LAB_VENUE"],
            !venue.isEmpty
        else { return nil }
        let expected = Set((env["MUSTER_LAB_EXPECT"] ?? "").split(separator: ",").map(String.init))
        return LabEnvironment(
            kiosk: kiosk, venue: venue, expected: expected, avahiConfig: "\(dir)/k\(kiosk)/avahi-daemon.conf",
            serviceName: env["MUSTER_LAB_SERVICE_NAME"])
    }
}

struct LabError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

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
        throw LabError("timed out waiting for \(what); events: \(events)")
    }
}
