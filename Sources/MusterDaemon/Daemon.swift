import Foundation
public import Logging
public import MusterCore
public import MusterCrypto
public import MusterStore
import MusterSync
import ServiceLifecycle

/// Wires the daemon: state directory, venue file, kiosk key, replica, control socket and systemd
/// notifier, run as one `ServiceGroup` that shuts down in reverse order on SIGTERM or SIGINT.
public struct Daemon: Sendable {
    public let config: KioskConfig
    public let logger: Logger
    public let clockOffsetMillis: Int64

    public init(config: KioskConfig, logger: Logger, clockOffsetMillis: Int64 = 0) {
        self.config = config
        self.logger = logger
        self.clockOffsetMillis = clockOffsetMillis
    }

    /// What ``prepare()`` opened.
    public struct Parts: Sendable {
        public let venue: VenueFile
        public let replica: Replica
        public let keyPair: SigningKeyPair
        public let clock: WallClock
    }

    /// Opens everything the daemon needs; fails with an actionable ``DaemonError``.
    public func prepare() throws -> Parts {
        let venue: VenueFile
        do {
            venue = try VenueFile.load(path: config.venue)
        } catch {
            throw DaemonError(.venue, "\(error)")
        }
        do {
            try FileManager.default.createDirectory(
                atPath: config.stateDirectory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw DaemonError(.stateDirectory, "cannot create the state directory \(config.stateDirectory): \(error.localizedDescription)")
        }
        let keyPair = try loadOrCreateKioskKey()
        let replica: Replica
        do {
            replica = try Replica.open(path: config.replicaPath, policy: venue.policy)
        } catch {
            throw DaemonError(.replica, "\(error)")
        }
        let clock = WallClock(offsetMillis: clockOffsetMillis, boundMillis: UInt64(config.clockBoundSeconds) * 1000)
        if let newest = try replica.newestHLC(author: AuthorID(keyPair.publicKey)) { clock.observe(newest) }
        logger.info(
            "replica open",
            metadata: [
                "kiosk": "\(config.name)", "fingerprint": "\(keyPair.publicKey.fingerprint)",
                "replica": "\(config.replicaPath)",
            ])
        return Parts(venue: venue, replica: replica, keyPair: keyPair, clock: clock)
    }

    func loadOrCreateKioskKey() throws -> SigningKeyPair {
        let path = config.kioskKeyPath
        do {
            if FileManager.default.fileExists(atPath: path) {
                return try KeyFile.read(from: path, passphrase: { nil })
            }
            let keyPair = try SigningKeyPair.generate()
            try KeyFile.write(keyPair, to: path, passphrase: nil)
            logger.notice("generated a new kiosk key", metadata: ["fingerprint": "\(keyPair.publicKey.fingerprint)"])
            return keyPair
        } catch {
            throw DaemonError(.kioskKey, "kiosk key \(path): \(error)")
        }
    }

    /// Runs until SIGTERM/SIGINT. `READY=1` is sent only once the control socket accepts requests.
    public func run() async throws {
        let parts = try prepare()
        let clock = parts.clock
        let sync = SyncService(
            configuration: SyncService.Configuration(
                listenHost: config.listen.host, listenPort: config.listen.port,
                staticPeers: config.staticPeers.map { ($0.host, $0.port) }),
            replica: parts.replica, keyPair: parts.keyPair, networkKey: parts.venue.networkKey, logger: logger,
            clockNow: { (clock.nowMillis, clock.boundMillis) }, observeHLC: { clock.observe($0) })
        let service = KioskService(
            replica: parts.replica, keyPair: parts.keyPair, config: config, clock: clock, logger: logger,
            published: { sync.published($0) }, peers: { sync.connectedPeers.withLock { $0 } })
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: sync)]
        if config.discovery {
            services.append(
                .init(
                    service: DiscoveryService(
                        sync: sync, venueID: parts.venue.venue.hex, fingerprint: parts.keyPair.publicKey.fingerprint,
                        logger: logger)))
        }
        let notifier = SystemdNotifier()
        let control = ControlServer(path: config.controlSocket, service: service, logger: logger) { [config] in
            notifier.notify("READY=1\nSTATUS=serving as \(config.name)")
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: notifier)] + services + [.init(service: control)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
        logger.info("stopped")
    }
}
