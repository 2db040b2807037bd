import Logging
import MusterCore
import MusterDiscovery
import MusterSync
import ServiceLifecycle

/// Announces this kiosk and feeds the kiosks that Avahi finds to the sync layer.
///
/// Discovery is only a hint: a discovered address is dialed, and gets nothing without the venue
/// handshake. When avahi-daemon is missing or restarting, sessions with known peers carry on.
struct DiscoveryService: Service {
    let sync: SyncService
    let venueID: String
    let fingerprint: String
    let logger: Logger

    static let protocolVersion = 1

    func run() async throws {
        // Publish the port actually bound (the config may say 0).
        var port: Int?
        while port == nil, !Task.isShuttingDownGracefully {
            port = sync.boundPort.withLock { $0 }
            if port == nil { try? await Task.sleep(for: .milliseconds(20)) }
        }
        guard let port else { return }
        let discovery = AvahiDiscovery(
            configuration: DiscoveryConfiguration(
                port: port, venueID: venueID, fingerprint: fingerprint, protocolVersion: Self.protocolVersion),
            logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await cancelWhenGracefulShutdown { try await discovery.run() } }
            group.addTask {
                for await event in discovery.events {
                    switch event {
                    case .appeared(let peer):
                        logger.info("discovered", metadata: ["peer": "\(peer.fingerprint)", "address": "\(peer.host):\(peer.port)"])
                        sync.dial(host: peer.host, port: peer.port)
                    case .disappeared(let name):
                        logger.debug("no longer announced", metadata: ["service": "\(name)"])
                    case .daemonUnavailable(let why):
                        logger.warning("avahi-daemon unavailable; syncing with known peers", metadata: ["reason": "\(why)"])
                    case .daemonAvailable:
                        logger.info("avahi-daemon available")
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
