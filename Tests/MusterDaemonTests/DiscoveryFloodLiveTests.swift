import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterSync
import MusterTestSupport
import ServiceLifecycle
import Testing

@testable import MusterDaemon
@testable import MusterDiscovery

/// 1,000 announced services that never answer, fed through the real `DiscoveryService` and dial
/// plan to a real `SyncService` on real sockets: the dial loops and open descriptors stay bounded
/// (issue 12, "Before the handshake").
@Suite("Discovery flood", .serialized)
struct DiscoveryFloodLiveTests {
    @Test(
        "1,000 announced services on closed and black-hole ports: dial loops and fds stay bounded, and end when they disappear"
    )
    func thousandSilentServices() async throws {
        let fixture = try HandlerFixture()
        let sync = SyncService(
            configuration: .init(listenHost: "127.0.0.1", listenPort: 0, staticPeers: []),
            replica: fixture.replica,
            keyPair: fixture.kioskKey,
            networkKey: try SecureBytes.random(count: 32),
            logger: TestSupport.quietLogger,
            clockNow: { (HandlerFixture.now, HandlerFixture.now) },
            observeHLC: { _ in }
        )
        // A black hole: a listener that never accepts, with the smallest backlog, so later connects
        // hang in SYN_SENT and the few that complete never hear a hello.
        let hole = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(hole) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = INADDR_ANY
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(hole, $0, size) }
        }
        var bound = sockaddr_in()
        var length = size
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(hole, $0, &length) }
        }
        #expect(listen(hole, 0) == 0)
        let holePort = Int(UInt16(bigEndian: bound.sin_port))
        // A closed port: bound and released.
        let closedPort = holePort == 65_000 ? 65_001 : 65_000

        let group = ServiceGroup(services: [sync], logger: TestSupport.quietLogger)
        let running = Task { try await group.run() }
        while sync.boundPort.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
        let baseline = openDescriptors()
        let discovery = DiscoveryService(
            sync: sync,
            venueID: "00",
            fingerprint: "00",
            logger: TestSupport.quietLogger
        )
        let (events, feed) = AsyncStream.makeStream(of: DiscoveryEvent.self)
        let following = Task { await discovery.follow(events) }
        // Every 127.0.0.0/8 address reaches the same listener: 1,000 distinct targets.
        let names = (0..<1_000).map { "fake-\($0)" }
        for (index, name) in names.enumerated() {
            let host = "127.0.\(1 + index / 250).\(1 + index % 250)"
            feed.yield(
                .appeared(
                    DiscoveredPeer(
                        serviceName: name,
                        host: host,
                        port: index % 2 == 0 ? holePort : closedPort,
                        venueID: "00",
                        fingerprint: String(format: "%04x", index),
                        protocolVersion: 1
                    )
                )
            )
        }
        var peakLoops = 0
        var peakFDs = baseline
        var peakDialing = 0
        let limit = DialPlan.Limits.standard.maxTargets
        let clock = ContinuousClock()
        var start = clock.now
        while clock.now - start < .seconds(12) {
            peakLoops = max(peakLoops, sync.dialLoops)
            peakFDs = max(peakFDs, openDescriptors())
            peakDialing = max(peakDialing, Self.sockets(to: [holePort, closedPort]))
            try await Task.sleep(for: .milliseconds(100))
        }
        // Every service withdraws: every loop ends, every descriptor is given back.
        for name in names { feed.yield(.disappeared(serviceName: name)) }
        start = clock.now
        while sync.dialLoops > 0 && clock.now - start < .seconds(20) {
            peakFDs = max(peakFDs, openDescriptors())
            peakDialing = max(peakDialing, Self.sockets(to: [holePort, closedPort]))
            try await Task.sleep(for: .milliseconds(100))
        }
        let ended = clock.now - start
        try await Task.sleep(for: .milliseconds(500))
        let after = openDescriptors()
        print(
            "1,000 announced services: at most \(peakLoops) dial loops (cap \(limit)); fds \(baseline) before, peak "
                + "\(peakFDs), \(after) after; every loop ended \(ended) after the services disappeared"
        )
        #expect(peakLoops <= limit)
        #expect(peakLoops > 0)
        // The sockets dialing the announced services, not the process's descriptors: the suite runs
        // other live tests in this process at the same time, whose sockets come and go.
        #expect(
            peakDialing <= limit + 16,
            "\(peakDialing) sockets dialing the services at once (fds \(baseline) → \(peakFDs))"
        )
        #expect(peakDialing > 0)
        #expect(sync.dialLoops == 0, "\(sync.dialLoops) dial loops outlived their services")
        let left = Self.sockets(to: [holePort, closedPort])
        #expect(left == 0, "\(left) sockets still dialing the services (fds \(baseline) before, \(after) after)")
        feed.finish()
        _ = await following.value
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// TCP sockets of this network namespace whose remote port is one of `ports`, connecting or
    /// connected (`/proc/net/tcp` and `tcp6`, states 01 and 02): the connections the dial loops hold
    /// (a closed one the kernel still winds down holds no descriptor).
    static func sockets(to ports: Set<Int>) -> Int {
        var count = 0
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3, let port = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) })
                else { continue }
                if ports.contains(port) && (fields[3] == "01" || fields[3] == "02") { count += 1 }
            }
        }
        return count
    }

    func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }
}
