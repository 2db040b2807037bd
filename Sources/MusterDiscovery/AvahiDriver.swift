import CAvahi
import Logging
import MusterTime

/// Carries out ``DiscoveryMachine``'s actions with libavahi-client and feeds Avahi's callbacks
/// back into it. Owns the client, the entry group, the browser and the resolvers.
///
/// Threading: every method runs either on the poll thread, inside an Avahi callback (which Avahi
/// calls with the poll lock held), or on another thread inside `AvahiThreadedPoll.withLock`. So
/// the poll lock serializes every access to the mutable state below and every Avahi call.
///
/// `@unchecked Sendable` because the object is shared with the poll thread through the
/// `userdata` pointer of every callback; the compiler cannot see the lock above, which makes that
/// sharing safe. The object outlives every callback: ``AvahiDiscovery/run()`` keeps it alive
/// until the client (and with it every Avahi object holding the pointer) is freed and the poll
/// thread has stopped.
final class AvahiDriver: @unchecked Sendable {
    private let pollAPI: UnsafePointer<AvahiPoll>
    private let txt: [String]
    private let port: UInt16
    private let events: AsyncStream<DiscoveryEvent>.Continuation
    private let logger: Logger

    private var machine: DiscoveryMachine
    /// Delays between attempts to reach avahi-daemon: 250 ms doubling to 30 s, reset once connected.
    /// A client made with `AVAHI_CLIENT_NO_FAIL` already waits for the daemon by itself; the backoff
    /// covers what that cannot (the system D-Bus down, a client that keeps failing) without turning
    /// the log into a tight loop, and keeps a restart of avahi-daemon (a second or two) almost unnoticed.
    private var backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(30))
    /// Fires (on the poll thread) to make a new client; armed by ``start()`` and by `.reconnect`.
    private var connectTimer: OpaquePointer?
    private var connectArmed = false
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    private var browser: OpaquePointer?
    private var resolvers: [ServiceInstance: OpaquePointer] = [:]

    /// A driver that announces `record` for `configuration` and browses for its venue's peers on
    /// `poll`'s thread, yielding what it finds into `events`.
    init(
        poll: AvahiThreadedPoll,
        configuration: DiscoveryConfiguration,
        record: MusterTXTRecord,
        events: AsyncStream<DiscoveryEvent>.Continuation,
        logger: Logger
    ) {
        pollAPI = poll.api
        machine = DiscoveryMachine(serviceName: configuration.serviceName, classifier: PeerClassifier(record: record))
        txt = record.entries
        port = UInt16(configuration.port)
        self.events = events
        self.logger = logger
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: - Called under the poll lock from AvahiDiscovery.run()

    /// Arms the first connection attempt. It runs on the poll thread, like every later one:
    /// `avahi_client_new` makes blocking D-Bus calls, which must not hold up a Swift thread.
    func start() throws(DiscoveryError) {
        connectTimer = try Avahi.check(
            "timeout_new",
            muster_avahi_timer_new(pollAPI, Self.connectCallback, userdata),
            errorCode: Int32(AVAHI_ERR_NO_MEMORY)
        )
        arm(after: .zero)
    }

    /// Frees the timer and the client. Freeing the client closes its D-Bus connection first (so
    /// nothing blocks), and the daemon then withdraws this kiosk's announcement.
    func stop() {
        if let connectTimer { muster_avahi_timer_free(pollAPI, connectTimer) }
        connectTimer = nil
        disconnect()
    }

    // MARK: - Connection (poll thread, lock held)

    /// The connect timer fired: replace the client, if any, with a new one.
    func connectTimerFired() {
        connectArmed = false
        disconnect()
        connect()
    }

    /// Makes a client that waits for the daemon if it is not there yet (`AVAHI_CLIENT_NO_FAIL`).
    /// Its first state change is delivered synchronously, from inside `avahi_client_new`.
    private func connect() {
        var error: Int32 = 0
        let made = avahi_client_new(pollAPI, AVAHI_CLIENT_NO_FAIL, Self.clientCallback, userdata, &error)
        do {
            client = try Avahi.check("avahi_client_new", made, errorCode: error)
        } catch {
            forgetPointers()  // avahi_client_new freed whatever its callback made
            perform(machine.connectFailed(error.message))
        }
    }

    /// Frees the client and, with it, the group, the browser and every resolver. Never called from
    /// inside one of the client's own callbacks (D-Bus is dispatching on its connection then); the
    /// `.reconnect` action defers it to the connect timer.
    private func disconnect() {
        if let client { avahi_client_free(client) }
        forgetPointers()
    }

    private func forgetPointers() {
        client = nil
        group = nil
        browser = nil
        resolvers = [:]
    }

    private func arm(after delay: Duration) {
        guard let connectTimer else { return }
        connectArmed = true
        let milliseconds = delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
        muster_avahi_timer_arm(pollAPI, connectTimer, UInt32(clamping: milliseconds))
    }

    private func disarm() {
        guard let connectTimer, connectArmed else { return }
        connectArmed = false
        muster_avahi_timer_disarm(pollAPI, connectTimer)
    }

    // MARK: - Called by Avahi on the poll thread (lock held)

    func clientChanged(_ client: OpaquePointer, _ state: AvahiClientState) {
        self.client = client  // during avahi_client_new, this is the first sight of it
        let mapped: DiscoveryMachine.ClientState
        switch state {
        case AVAHI_CLIENT_S_RUNNING: mapped = .running
        case AVAHI_CLIENT_S_REGISTERING: mapped = .registering
        case AVAHI_CLIENT_S_COLLISION: mapped = .collision
        case AVAHI_CLIENT_CONNECTING: mapped = .connecting
        default: mapped = .failure(Avahi.text(of: Avahi.lastError(of: client)))
        }
        perform(machine.clientStateChanged(mapped))
    }

    func groupChanged(_ group: OpaquePointer, _ state: AvahiEntryGroupState) {
        guard group == self.group else { return }
        let mapped: DiscoveryMachine.GroupState
        switch state {
        case AVAHI_ENTRY_GROUP_UNCOMMITED: mapped = .uncommitted
        case AVAHI_ENTRY_GROUP_REGISTERING: mapped = .registering
        case AVAHI_ENTRY_GROUP_ESTABLISHED: mapped = .established
        case AVAHI_ENTRY_GROUP_COLLISION: mapped = .collision
        default: mapped = .failure(clientErrorText)
        }
        perform(machine.groupStateChanged(mapped))
    }

    func browsed(_ event: AvahiBrowserEvent, _ instance: ServiceInstance?) {
        switch event {
        case AVAHI_BROWSER_NEW:
            guard let instance else { return }
            perform(machine.serviceFound(instance))
        case AVAHI_BROWSER_REMOVE:
            guard let instance else { return }
            perform(machine.serviceRemoved(instance))
        case AVAHI_BROWSER_ALL_FOR_NOW:
            perform(machine.browseSettled())
        case AVAHI_BROWSER_CACHE_EXHAUSTED:
            break
        default:
            perform(machine.browseFailed(clientErrorText))
        }
    }

    func resolved(_ resolver: OpaquePointer, host: String, isIPv4: Bool, port: Int, txt: [[UInt8]]) {
        guard let instance = instance(of: resolver) else { return }
        perform(machine.resolved(ResolvedService(instance: instance, host: host, isIPv4: isIPv4, port: port, txt: txt)))
    }

    func resolveFailed(_ resolver: OpaquePointer) {
        guard let instance = instance(of: resolver) else { return }
        perform(machine.resolveFailed(instance, reason: clientErrorText))
    }

    // MARK: - Carrying out actions

    private func perform(_ actions: [DiscoveryMachine.Action]) {
        for action in actions {
            do {
                try perform(action)
            } catch {
                perform(machine.operationFailed(error))
                return
            }
        }
    }

    private func perform(_ action: DiscoveryMachine.Action) throws(DiscoveryError) {
        switch action {
        case .publish(let name):
            try publish(name)
        case .withdraw:
            if let group { try Avahi.check("avahi_entry_group_reset", avahi_entry_group_reset(group)) }
        case .browse:
            try browse()
        case .resolve(let instance):
            try resolve(instance)
        case .stopResolving(let instance):
            if let resolver = resolvers.removeValue(forKey: instance) {
                try Avahi.check("avahi_service_resolver_free", avahi_service_resolver_free(resolver))
            }
        case .dropAvahiObjects:
            dropAvahiObjects()
        case .reconnect:
            guard !connectArmed else { return }
            let delay = backoff.next()
            logger.debug("reconnecting to avahi-daemon", metadata: ["after": "\(delay)"])
            arm(after: delay)
        case .resetBackoff:
            backoff.reset()
            disarm()
        case .emit(let event):
            events.yield(event)
        case .log(let level, let message):
            logger.log(level: level, "\(message)")
        }
    }

    private func publish(_ name: String) throws(DiscoveryError) {
        guard let client else { return }
        let group: OpaquePointer
        if let existing = self.group {
            group = existing
            if avahi_entry_group_is_empty(group) == 0 {
                try Avahi.check("avahi_entry_group_reset", avahi_entry_group_reset(group))
            }
        } else {
            group = try Avahi.check(
                "avahi_entry_group_new",
                avahi_entry_group_new(client, Self.groupCallback, userdata),
                errorCode: Avahi.lastError(of: client)
            )
            self.group = group
        }
        let added = try AvahiStringList.with(txt) { list throws(DiscoveryError) in
            avahi_entry_group_add_service_strlst(
                group,
                Avahi.anyInterface,
                Avahi.anyProtocol,
                AvahiPublishFlags(0),
                name,
                MusterTXTRecord.serviceType,
                nil,
                nil,
                port,
                list
            )
        }
        if added == Int32(AVAHI_ERR_COLLISION) {
            // Another client of this same daemon already has the name.
            perform(machine.publishCollided())
            return
        }
        try Avahi.check("avahi_entry_group_add_service_strlst", added)
        try Avahi.check("avahi_entry_group_commit", avahi_entry_group_commit(group))
    }

    private func browse() throws(DiscoveryError) {
        guard let client, browser == nil else { return }
        browser = try Avahi.check(
            "avahi_service_browser_new",
            avahi_service_browser_new(
                client,
                Avahi.anyInterface,
                Avahi.anyProtocol,
                MusterTXTRecord.serviceType,
                nil,
                AvahiLookupFlags(0),
                Self.browserCallback,
                userdata
            ),
            errorCode: Avahi.lastError(of: client)
        )
    }

    private func resolve(_ instance: ServiceInstance) throws(DiscoveryError) {
        guard let client, resolvers[instance] == nil else { return }
        // Resolve to the address family the instance was seen over; the machine prefers IPv4
        // when a peer is seen over both.
        resolvers[instance] = try Avahi.check(
            "avahi_service_resolver_new",
            avahi_service_resolver_new(
                client,
                instance.interface,
                instance.protocol,
                instance.name,
                instance.type,
                instance.domain,
                instance.protocol,
                AvahiLookupFlags(0),
                Self.resolverCallback,
                userdata
            ),
            errorCode: Avahi.lastError(of: client)
        )
    }

    private func dropAvahiObjects() {
        for resolver in resolvers.values {
            release("avahi_service_resolver_free", avahi_service_resolver_free(resolver))
        }
        resolvers = [:]
        if let browser { release("avahi_service_browser_free", avahi_service_browser_free(browser)) }
        browser = nil
        if let group { release("avahi_entry_group_free", avahi_entry_group_free(group)) }
        group = nil
    }

    /// For the `*_free` calls made while the daemon is gone: the client-side memory is released
    /// whatever they return, and the daemon-side object is gone with the daemon, so a failure is
    /// only worth a debug line.
    private func release(_ call: String, _ result: Int32) {
        do {
            try Avahi.check(call, result)
        } catch {
            logger.debug("\(error.message)")
        }
    }

    private func instance(of resolver: OpaquePointer) -> ServiceInstance? {
        resolvers.first { $0.value == resolver }?.key
    }

    private var clientErrorText: String {
        client.map { Avahi.text(of: Avahi.lastError(of: $0)) } ?? "no client"
    }
}
