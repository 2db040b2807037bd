import Logging
import MusterCore
import MusterDiscovery
import MusterSync
import MusterTime
import ServiceLifecycle

/// Announces this kiosk and feeds the kiosks that Avahi finds to the sync layer.
///
/// Discovery is only a hint: a discovered address is dialed, and gets nothing without the venue
/// handshake. When avahi-daemon is missing or restarting, sessions with known peers carry on.
/// What is dialed, and for how long, is the ``DialPlan``'s: announcements cost a bounded number of
/// dial loops whatever the LAN announces.
struct DiscoveryService: Service {
    let sync: SyncService
    let venueID: String
    let fingerprint: String
    let logger: Logger
    var limits: DialPlan.Limits = .standard
    var time: any TimeSource = SystemTime()

    static let protocolVersion = 1
    /// How often rested addresses are looked at again.
    static let tickInterval: Duration = .seconds(5)

    func run() async throws {
        // Publish the port actually bound (the config may say 0).
        var port: Int?
        while port == nil, !Task.isShuttingDownGracefully {
            port = sync.boundPort.withLock { $0 }
            if port == nil { try? await time.sleep(for: .milliseconds(20)) }
        }
        guard let port else { return }
        let discovery = AvahiDiscovery(
            configuration: DiscoveryConfiguration(
                port: port,
                venueID: venueID,
                fingerprint: fingerprint,
                protocolVersion: Self.protocolVersion
            ),
            logger: logger
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await cancelWhenGracefulShutdown { try await discovery.run() } }
            group.addTask { await cancelWhenGracefulShutdown { _ = await follow(discovery.events) } }
            try await group.waitForAll()
        }
    }

    private enum Input: Sendable {
        case event(DiscoveryEvent)
        case dialEnded(DialPlan.Target, DialEnd)
        case tick
    }

    /// Carries discovery events through the dial plan to the sync service until `events` ends (or
    /// the task is cancelled); returns the plan as it was left.
    @discardableResult
    func follow(_ events: AsyncStream<DiscoveryEvent>) async -> DialPlan {
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        var plan = DialPlan(limits: limits)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events { continuation.yield(.event(event)) }
                continuation.finish()
            }
            group.addTask { [time] in
                while (try? await time.sleep(for: Self.tickInterval)) != nil { continuation.yield(.tick) }
            }
            for await input in inputs {
                let actions: [DialPlan.Action]
                switch input {
                case .event(.appeared(let peer)):
                    let address = HostPort(host: peer.host, port: peer.port)
                    logger.info("discovered", metadata: ["peer": "\(peer.fingerprint)", "address": "\(address)"])
                    actions = plan.appeared(
                        service: peer.serviceName,
                        at: address,
                        now: time.uptime
                    )
                    if actions.isEmpty && plan.ignored > 0 && plan.ignored.isPowerOfTwo {
                        logger.warning(
                            "too many announced addresses; ignoring new ones",
                            metadata: ["tracked": "\(plan.trackedCount)", "ignored": "\(plan.ignored)"]
                        )
                    }
                case .event(.disappeared(let name)):
                    logger.debug("no longer announced", metadata: ["service": "\(name)"])
                    actions = plan.disappeared(service: name)
                case .event(.daemonUnavailable(let why)):
                    logger.warning("avahi-daemon unavailable; syncing with known peers", metadata: ["reason": "\(why)"])
                    actions = []
                case .event(.daemonAvailable):
                    logger.info("avahi-daemon available")
                    actions = []
                case .dialEnded(let target, let why):
                    if case .gaveUp(let failures) = why {
                        logger.info(
                            "giving up on an announced address for now",
                            metadata: ["address": "\(target)", "failures": "\(failures)"]
                        )
                    }
                    actions = plan.dialEnded(target, why, now: time.uptime)
                case .tick:
                    actions = plan.tick(now: time.uptime)
                }
                for action in actions {
                    switch action {
                    case .dial(let target):
                        sync.dial(target, giveUpAfter: limits.giveUpAfter) { why in
                            continuation.yield(.dialEnded(target, why))
                        }
                    case .stop(let target):
                        sync.stopDialing(target)
                    }
                }
            }
            group.cancelAll()
        }
        return plan
    }
}

extension Int {
    /// 1, 2, 4, 8…: for logging a repeated condition a logarithmic number of times.
    fileprivate var isPowerOfTwo: Bool { self > 0 && self & (self - 1) == 0 }
}
