public import Logging
import Synchronization

/// Publishes this kiosk as `_muster._tcp` (TXT `v=`, `venue=`, `fp=`) and browses and resolves the
/// other kiosks of its venue through the system's avahi-daemon.
///
/// Services of other venues and this kiosk's own are ignored. Discovery is only a hint (anyone on
/// the LAN can announce anything); the sync layer authenticates every peer it connects to, and
/// works from static peers when multicast is blocked.
///
/// The daemon may be missing at start, crash or restart at any time: the client waits for it
/// (`AVAHI_CLIENT_NO_FAIL`), is remade with backoff when it dies, and republishes and browses
/// again each time it reaches RUNNING. ``DiscoveryEvent/daemonUnavailable(_:)`` and
/// ``DiscoveryEvent/daemonAvailable`` tell the consumer, which keeps syncing with known peers
/// meanwhile.
///
/// ```swift
/// let discovery = AvahiDiscovery(configuration: config, logger: logger)
/// async let _ = discovery.run()
/// for await event in discovery.events { … }
/// ```
public final class AvahiDiscovery: Sendable {
    public let configuration: DiscoveryConfiguration
    private let logger: Logger
    private let stream: AsyncStream<DiscoveryEvent>
    private let continuation: AsyncStream<DiscoveryEvent>.Continuation
    private let started = Mutex(false)

    public init(configuration: DiscoveryConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        // Unbounded is safe: the events are bounded by avahi-daemon's own cache limits, and a
        // dropped `disappeared` would leave a ghost peer.
        (stream, continuation) = AsyncStream.makeStream(of: DiscoveryEvent.self)
    }

    /// The discovery events, for one consumer. Ends when ``run()`` returns.
    public var events: AsyncStream<DiscoveryEvent> { stream }

    /// Runs until the task is cancelled: starts Avahi's thread, publishes, browses, and reconnects
    /// to avahi-daemon whenever it goes away. On cancellation it withdraws the announcement, frees
    /// every Avahi object, stops the thread and ends ``events``.
    ///
    /// - Throws: ``DiscoveryError`` when the configuration cannot be published (checked before
    ///   anything starts), when called twice, or when Avahi's thread cannot start. A missing or
    ///   failing daemon is not an error: it is reported as events and retried.
    public func run() async throws {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { throw DiscoveryError(.alreadyRunning, "AvahiDiscovery.run() was already called.") }
        defer { continuation.finish() }

        let record = try configuration.validatedRecord()
        let poll = try AvahiThreadedPoll()
        let driver = AvahiDriver(
            poll: poll,
            configuration: configuration,
            record: record,
            events: continuation,
            logger: logger
        )
        try poll.start()
        defer {
            // Free the client (withdrawing the announcement) before the thread stops, then join it.
            poll.withLock { driver.stop() }
            poll.stop()
        }
        try poll.withLock { try driver.start() }
        logger.info(
            "discovery started",
            metadata: ["service": "\(configuration.serviceName)", "port": "\(configuration.port)"]
        )

        // Everything else happens on Avahi's thread; this task only waits to be cancelled.
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(86_400))
        }
    }
}
