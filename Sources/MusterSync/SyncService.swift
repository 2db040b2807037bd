import Foundation
public import Logging
public import MusterCore
public import MusterCrypto
public import MusterStore
import MusterTime
import NIOCore
import NIOPosix
public import ServiceLifecycle
import Synchronization

/// Kiosk-to-kiosk replication over TCP: the thin NIO driver of the sync core (``SyncCore``).
///
/// It accepts and dials connections, runs the venue handshake and the credential check, and feeds
/// the core what happens (sessions, frames, local commits, store results, timers) with the time
/// from the injected ``TimeSource``; it carries out what the core answers: frames written in order by
/// each session's ``PeerConnection``, batches stored by group commit, timers, sessions closed.
/// Roster, credentials and revocations stay here (they need the roster and the keys). Sessions are
/// keyed by the peer's key, never its address; a silent connection is dropped within
/// ``SyncLimits/silenceTimeout`` by its watchdog on the event loop.
public actor SyncService: Service {
    public struct Configuration: Sendable {
        public var listenHost: String
        public var listenPort: Int
        public var staticPeers: [HostPort]
        /// Where "now" and every sleep come from (monotonic uptime for the core's timers).
        public var time: any TimeSource
        /// Up to this many kiosks every kiosk keeps a session with every other (see
        /// ``SyncCore/Configuration/fullMeshThreshold``); nil: ``FullMesh/defaultThreshold``.
        public var fullMeshThreshold: Int?

        public init(
            listenHost: String,
            listenPort: Int,
            staticPeers: [HostPort],
            time: any TimeSource = SystemTime(),
            fullMeshThreshold: Int? = nil
        ) {
            self.listenHost = listenHost
            self.listenPort = listenPort
            self.staticPeers = staticPeers
            self.time = time
            self.fullMeshThreshold = fullMeshThreshold
        }
    }

    let configuration: Configuration
    let replica: Replica
    let keyPair: SigningKeyPair
    let logger: Logger
    /// Called when this kiosk must stop because of a revocation of itself, with why. The daemon then
    /// decides, with ``RevocationVerdict``, whether it may wipe or only stop.
    let onRevoked: @Sendable (String) -> Void
    /// Called once the replica was quiet for a whole anti-entropy interval after a change: the daemon
    /// gives the busy moment's heap back to the system then (process memory is not sync's business).
    let onQuiet: @Sendable () -> Void
    /// The venue network keys this kiosk holds, newest generation first: dials use the newest; an
    /// incoming handshake may use any (a kiosk that was off during a rotation catches up through an
    /// older one; the roster check after the handshake is what keeps a revoked kiosk out).
    nonisolated let keyRing: Mutex<NetworkKeyRing>
    let observeHLC: @Sendable (HLC) -> Void
    let clockNow: @Sendable () -> (now: UInt64, bound: UInt64)
    /// When set (`MUSTER_COMMIT_TRACE`), every committed ingest batch is traced.
    let commitTrace: CommitTrace?
    nonisolated let me: AuthorID
    var sessions: [AuthorID: PeerConnection] = [:]
    /// The replication protocol; every change to it goes through ``drive(_:)``.
    var core: SyncCore
    /// One task per armed core timer.
    var timerTasks: [SyncTimer: Task<Void, Never>] = [:]
    /// Peers whose frames are not read until the core says so (``SyncOutput/pauseReading(_:)``), and
    /// the receive loops waiting (more than one when a reconnected session's reader meets the old one's).
    var pausedReading: Set<AuthorID> = []
    var readAheadWaiters: [AuthorID: [CheckedContinuation<Void, Never>]] = [:]
    /// Where group commits run, off the actor: sessions' messages are read and driven meanwhile,
    /// and what they ask to store joins the next group.
    private let storeQueue = DispatchQueue(label: "muster.sync.store")
    /// Shut down: no new timers.
    var stopped = false
    nonisolated var time: any TimeSource { configuration.time }
    /// Which peer key answered at an address, so a dial loop does not redial a connected peer.
    var addressPeers: [HostPort: AuthorID] = [:]
    private let localDeltas: AsyncStream<[SignedDelta]>
    private nonisolated let localContinuation: AsyncStream<[SignedDelta]>.Continuation
    private let dialRequests: AsyncStream<HostPort>
    private nonisolated let dialContinuation: AsyncStream<HostPort>.Continuation
    /// Snapshot for status output, readable without awaiting the actor.
    public nonisolated let connectedPeers = Mutex<[String]>([])
    /// What each peer in session said last (heads, digest, when), for `muster status`.
    public nonisolated let peerStates = Mutex<[AuthorID: PeerState]>([:])
    /// What each peer's heads said it holds of each author's chain, this run, by peer: what
    /// ``RevocationVerdict`` needs before a kiosk may wipe other kiosks' check-ins with its own.
    public nonisolated let peersHold = Mutex<[AuthorID: [AuthorID: UInt64]]>([:])
    /// What each peer showed of our own chain this run, and what of it is recorded.
    private nonisolated let heldByPeers = Mutex(HeldElsewhereReports(interval: SyncLimits.heldElsewhereWriteInterval))
    /// Bumped by every change to the replica, so the digest is recomputed only when it can differ.
    private nonisolated let stateVersion = Atomic<UInt64>(0)
    /// The last digest computed and the state version it belongs to.
    private nonisolated let digestCache = Mutex<(version: UInt64, digest: String)?>(nil)
    /// The port actually bound (useful when configured as 0).
    public nonisolated let boundPort = Mutex<Int?>(nil)
    /// Accepted connections still in their handshake, capped globally and per address.
    public nonisolated let unauthenticated = UnauthenticatedConnections()
    /// The dial loops running, by address (``dial(host:port:giveUpAfter:onEnd:)``).
    nonisolated let dials = DialRegistry()

    public init(
        configuration: Configuration,
        replica: Replica,
        keyPair: SigningKeyPair,
        networkKey: SecureBytes,
        keyGeneration: UInt64 = 0,
        logger: Logger,
        clockNow: @escaping @Sendable () -> (now: UInt64, bound: UInt64),
        observeHLC: @escaping @Sendable (HLC) -> Void,
        onRevoked: @escaping @Sendable (String) -> Void = { _ in },
        onQuiet: @escaping @Sendable () -> Void = {},
        commitTrace: CommitTrace? = nil
    ) {
        self.onQuiet = onQuiet
        self.commitTrace = commitTrace
        self.configuration = configuration
        self.replica = replica
        self.keyPair = keyPair
        self.keyRing = Mutex(NetworkKeyRing(venueKey: networkKey, generation: keyGeneration))
        self.onRevoked = onRevoked
        self.logger = logger
        self.clockNow = clockNow
        self.observeHLC = observeHLC
        me = AuthorID(keyPair.publicKey)
        var settings = SyncCore.Configuration(
            me: me,
            epoch: (try? replica.epoch()) ?? "",
            organizer: replica.policy.organizer
        )
        if let threshold = configuration.fullMeshThreshold { settings.fullMeshThreshold = threshold }
        // Silence is judged by each connection's watchdog, on the event loop (see serve).
        settings.silenceTimeout = nil
        core = SyncCore(
            configuration: settings,
            heads: (try? replica.heads()) ?? [],
            seed: UInt64.random(in: 0...UInt64.max)
        )
        (localDeltas, localContinuation) = AsyncStream.makeStream(of: [SignedDelta].self)
        (dialRequests, dialContinuation) = AsyncStream.makeStream(of: HostPort.self)
    }

    /// Called after every local write (in order): the deltas are pushed to every peer.
    public nonisolated func published(_ deltas: [SignedDelta]) {
        stateVersion.add(1, ordering: .releasing)
        localContinuation.yield(deltas)
    }

    /// Asks the service to keep a session with this address (discovery or static peers).
    ///
    /// - Parameters:
    ///   - giveUpAfter: end the loop after this many attempts in a row established nothing (nil:
    ///     never, for static peers).
    ///   - onEnd: told once when the loop ends (not called when a loop runs already for the address).
    public nonisolated func dial(
        _ address: HostPort,
        giveUpAfter: Int? = nil,
        onEnd: (@Sendable (DialEnd) -> Void)? = nil
    ) {
        guard dials.begin(address, maxFailures: giveUpAfter, onEnd: onEnd) else { return }
        dialContinuation.yield(address)
    }

    /// The address is no longer wanted (its service disappeared): its dial loop ends before its
    /// next dial; a session in progress runs to its end.
    public nonisolated func stopDialing(_ address: HostPort) {
        dials.stop(address)
    }

    /// Dial loops running now.
    public nonisolated var dialLoops: Int { dials.count }

    /// Opens the network keys sealed to this kiosk by revocations and adds them to the ring (which
    /// decides which is current and how long the others stay usable: ``NetworkKeyRing``).
    nonisolated func refreshKeyRing() {
        guard let sealed = try? replica.sealedNetworkKeys(for: me) else { return }
        var opened: [(SealedNetworkKey, SecureBytes)] = []
        for entry in keyRing.withLock({ $0.unopened(sealed) }) {
            do {
                opened.append((entry, try SealedBox.open(entry.sealed, with: keyPair)))
            } catch {
                logger.error(
                    "cannot open a rotated network key",
                    metadata: ["generation": "\(entry.generation)", "error": "\(error)"]
                )
            }
        }
        let (changed, generation) = keyRing.withLock { ring in
            (ring.update(with: sealed, opened: opened), ring.generation)
        }
        if changed { logger.notice("venue network key rotated", metadata: ["generation": "\(generation)"]) }
    }

    /// The newest network key generation in use.
    public nonisolated var keyGeneration: UInt64 { keyRing.withLock { $0.generation } }

    public func run() async throws {
        refreshKeyRing()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: SyncLimits.listenBacklog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: configuration.listenHost, port: configuration.listenPort) { [unauthenticated] channel in
                channel.eventLoop.makeCompletedFuture { try Self.wrap(channel, unauthenticated: unauthenticated) }
            }
        let port = server.channel.localAddress?.port
        boundPort.withLock { $0 = port }
        logger.info("sync listening", metadata: ["address": "\(configuration.listenHost):\(port ?? -1)"])
        for peer in configuration.staticPeers { dial(peer) }

        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    try? await server.executeThenClose { inbound in
                        try await withThrowingDiscardingTaskGroup { connections in
                            for try await connection in inbound.cancelOnGracefulShutdown() {
                                connections.addTask { await self.serve(connection, dialed: nil) }
                            }
                        }
                    }
                }
                group.addTask {
                    for await deltas in self.localDeltas.cancelOnGracefulShutdown() {
                        await self.announceDevices(of: deltas)
                        await self.drive(.localCommit(deltas))
                        let revocations = deltas.compactMap { delta -> RevokePayload? in
                            guard delta.kind == .revoke, case .revoke(let payload)? = try? delta.decode().body else {
                                return nil
                            }
                            return payload
                        }
                        if !revocations.isEmpty { await self.applyRevocations(revocations) }
                    }
                }
                group.addTask {
                    await withDiscardingTaskGroup { dials in
                        for await target in self.dialRequests.cancelOnGracefulShutdown() {
                            dials.addTask { await self.dialLoop(target) }
                        }
                    }
                }
                group.addTask {
                    // The state version one interval ago and the one last followed by a heap trim.
                    var previous: UInt64 = 0
                    var trimmed: UInt64 = 0
                    // Intervals since the digest was last announced.
                    var sinceDigest = 0
                    while !Task.isShuttingDownGracefully {
                        try? await cancelWhenGracefulShutdown {
                            try await self.time.sleep(for: SyncLimits.antiEntropyInterval)
                        }
                        let now = self.stateVersion.load(ordering: .acquiring)
                        // Quiet for a whole interval after a change: the busy moment's memory can go back.
                        if now == previous && now != trimmed {
                            self.onQuiet()
                            trimmed = now
                        }
                        let quiet = now == previous
                        previous = now
                        // Computed off the actor: hashing a large replica must not hold up the sessions.
                        // Only once the replica was quiet for an interval (or every sixth interval while
                        // it keeps changing): during a burst the digest is stale before it is sent, and
                        // hashing every table every 5 s on every kiosk took 7 % of a 50-kiosk lab's CPU.
                        sinceDigest += 1
                        if quiet || sinceDigest >= 6, let digest = self.currentDigest() {
                            sinceDigest = 0
                            await self.drive(.digest(digest))
                        }
                        await self.refreshHeads()
                    }
                }
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
            self.unauthenticated.closeAll()
            self.localContinuation.finish()
            self.dialContinuation.finish()
            Task { await self.closeAll() }
        }
        await storeDrained()
    }

    static func wrap(
        _ channel: any Channel,
        unauthenticated: UnauthenticatedConnections? = nil
    ) throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try SessionPipeline.configure(channel, unauthenticated: unauthenticated)
    }

    private func closeAll() {
        stopped = true
        for task in timerTasks.values { task.cancel() }
        timerTasks = [:]
        for session in sessions.values { session.close() }
    }

    /// Keeps a session with an address alive: dial, serve until it ends, back off, dial again.
    /// Its ``DialSchedule`` decides the backoff and when the loop ends (stopped, or given up).
    private func dialLoop(_ address: HostPort) async {
        // Which key of the ring to dial with: the newest, and after each failure the next older one,
        // so two kiosks that each hold a different newest key (two revocations of one generation
        // signed during a partition) still meet on a key both hold and exchange the revocations.
        var dialKey = 0
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            guard dials.shouldDial(address) else {
                dials.ended(address, .stopped)
                return
            }
            let outcome: DialSchedule.Outcome
            if let peer = addressPeers[address], sessions[peer] != nil {
                outcome = .alreadyConnected
            } else if let peer = addressPeers[address], !core.wantsSession(with: peer) {
                // Beyond the full mesh a loop redialing every kiosk it ever reached churned: each
                // session the core then closed as "view full" was dialed again (a 50-kiosk lab as an
                // overlay spent its time in handshakes). The core asks for the sessions it wants.
                outcome = .notWanted
            } else {
                do {
                    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                        .connectTimeout(.seconds(3))
                        .connect(host: address.host, port: address.port) { channel in
                            channel.eventLoop.makeCompletedFuture { try Self.wrap(channel) }
                        }
                    outcome = await serve(channel, dialed: address, key: dialKey) ? .established : .failed
                } catch {
                    logger.debug("dial failed", metadata: ["address": "\(address)", "error": "\(error)"])
                    outcome = .failed
                }
            }
            dialKey = outcome == .failed ? dialKey + 1 : 0
            guard case .retry(let delay) = dials.attempted(address, outcome) else { return }
            await dials.pause(address, for: delay) { [time] delay in
                try? await cancelWhenGracefulShutdown { try await time.sleep(for: delay) }
            }
        }
        dials.ended(address, .shutdown)
    }

    /// Runs one connection: handshake, then the session until it ends. Returns whether a session (or
    /// a rekey session, under a retired key) was established.
    @discardableResult
    private nonisolated func serve(
        _ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>,
        dialed: HostPort?,
        key dialKey: Int = 0
    ) async -> Bool {
        let remote = channel.channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
        var established = false
        var rekeyed = false
        do {
            try await channel.executeThenClose { inbound, outbound in
                var frames = inbound.makeAsyncIterator()
                let heard = LastHeard(time: time)
                let raw = channel.channel
                // Whole frames arriving count as life even before this loop gets to them (a busy
                // kiosk); single bytes trickling in do not.
                try await raw.eventLoop.submit {
                    let decoder = try raw.pipeline.syncOperations.handler(type: ByteToMessageHandler<FrameDecoder>.self)
                    try raw.pipeline.syncOperations.addHandler(LivenessHandler(heard: heard), position: .after(decoder))
                }.get()
                // Closes the connection when the peer stays silent (during the handshake too).
                let liveness = Task {
                    while !Task.isCancelled {
                        try? await time.sleep(for: .milliseconds(250))
                        if heard.silence > SyncLimits.silenceTimeout && !heard.isBusy {
                            raw.close(promise: nil)
                            return
                        }
                    }
                }
                defer { liveness.cancel() }
                func next() async throws -> [UInt8] {
                    guard let frame = try await frames.next() else { throw SyncError.closed }
                    heard.now()
                    return Array(frame.readableBytesView)
                }
                let (result, keyIndex) = try await handshake(
                    dialed: dialed != nil,
                    key: dialKey,
                    next: next,
                    outbound: outbound
                )
                let peer = AuthorID(result.peer)
                guard peer != me else { throw SyncError.connectedToSelf }
                let sender = try SecretStreamSender(key: result.sendKey)
                try await outbound.write(.frame(sender.header))
                let receiver = try SecretStreamReceiver(key: result.receiveKey, header: try await next())
                let connection = PeerConnection(
                    peer: peer,
                    initiator: dialed != nil ? me : peer,
                    address: remote,
                    outbound: outbound,
                    channel: raw,
                    sender: sender,
                    replica: replica,
                    logger: logger
                )
                // Credentials first: nothing else is said until the peer's enrollment checks out. The dialer
                // shows its own first; the listener shows its own only once the dialer's have checked out, so
                // a peer holding nothing but the network key (a thief with an old key, a scanner) never learns
                // our name, location or certificate. One side must go first, and it is the one that chose whom
                // to talk to.
                guard let ours = try replica.certificate(of: me) else { throw SyncError.notEnrolled }
                if dialed != nil { try await connection.send(.credentials(ours)) }
                let (first, _) = try receiver.open(try await next())
                guard
                    let enrollment = await admit(
                        peer,
                        credentials: try SyncMessage.decode(first),
                        connection: connection,
                        address: remote
                    )
                else {
                    // A revoked peer was shown its revocation; it may answer with one organizer delta
                    // (see ``appeal(_:from:)``), read under the credentials' cap and the handshake's
                    // deadline; then the connection ends.
                    if case .revoked? = try? replica.membership(of: peer),
                        try await ConnectionGuard.awaitAppeal(raw),
                        let (plaintext, _) = try? receiver.open(try await next()),
                        case .deltas(let deltas)? = try? SyncMessage.decode(plaintext)
                    {
                        await appeal(deltas, from: peer)
                    }
                    return
                }
                // Admitted: no more deadline or unauthenticated slot, and frames up to the session's
                // limit (a rekey session's under a retired key), before our own credentials go out, so
                // what the peer sends right behind them is read at once.
                guard try await ConnectionGuard.admitted(raw, rekey: keyIndex != 0) else { return }
                if dialed == nil { try await connection.send(.credentials(ours)) }
                if keyIndex != 0 {
                    try await rekey(connection, peer: peer, next: next, receiver: receiver, channel: raw)
                    rekeyed = true
                    return
                }
                guard await register(connection, dialed: dialed, enrollment: enrollment) else { return }
                established = true
                defer { Task { await self.unregister(connection) } }
                logger.info("session established", metadata: ["peer": "\(peer)", "address": "\(remote)"])
                try await connection.send(.roster(try replica.certificates()))
                let writer = Task {
                    await connection.runOutgoing { weight in await self.drive(.written(peer: peer, weight: weight)) }
                }
                defer {
                    connection.finishOutgoing()
                    writer.cancel()
                }
                await opened(connection)
                while true {
                    let sealed = try await next()
                    let (plaintext, _) = try receiver.open(sealed)
                    let message = try SyncMessage.decode(plaintext)
                    note(message, from: peer)
                    switch message {
                    case .roster(let certificates):
                        await learn(certificates, from: peer)
                    case .revoked(let evidence):
                        await heardRevocation(evidence, on: connection)
                    case .rekey(let revocations):
                        // The peer is on a newer key than the one we dialed or answered with.
                        heardRekey(revocations, from: peer)
                    case .networkKey(let generation, let sealed):
                        heardNetworkKey(generation: generation, sealed: sealed, from: peer)
                    case .credentials:
                        break
                    default:
                        // Storing a batch is our own work, not the peer's silence: a kiosk slowed down
                        // by a burst must not drop the sessions that feed it.
                        heard.busy(true)
                        await receive(message, from: connection)
                        heard.busy(false)
                    }
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["address": "\(remote)", "error": "\(error)"])
        }
        // A rekey session counts as one: the dial loop goes back to the current key, now newer.
        return established || rekeyed
    }

    /// Runs the handshake under one of the ring's keys. Returns the result and the index of the key
    /// in the ring (0: the current one; any other is retired and only hands over the newer keys).
    ///
    /// - Parameter dialKey: when dialing, the attempt in a row (``NetworkKeyRing/dialKey(attempt:nowMillis:)``).
    private nonisolated func handshake(
        dialed: Bool,
        key dialKey: Int,
        next: () async throws -> [UInt8],
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws -> (HandshakeResult, keyIndex: Int) {
        // Any kiosk holding the venue network key may sync (the signed roster narrows this later);
        // never ourselves, e.g. through our own announcement or a static peer pointing back at us.
        let me = self.me
        let authorize: (SigningPublicKey) -> Bool = { AuthorID($0) != me }
        // The kiosk's clock (the daemon's, with any offset it was started with) says which keys are
        // still within their grace period.
        let now = clockNow().now
        if dialed {
            let (index, key) = keyRing.withLock { $0.dialKey(attempt: dialKey, nowMillis: now) }
            let client = try ClientHandshake(networkKey: key, keyPair: keyPair, authorize: authorize)
            try await outbound.write(.frame(client.hello()))
            try await outbound.write(.frame(try client.receiveHello(try await next())))
            return (try client.receiveAccept(try await next()), index)
        }
        // The client's hello is authenticated with one of our usable network keys: find which.
        let keys = keyRing.withLock { $0.accepted(nowMillis: now) }
        let hello = try await next()
        var answer: (ServerHandshake, [UInt8], Int)?
        var failure: (any Error)?
        for (index, key) in keys {
            do {
                let server = try ServerHandshake(networkKey: key, keyPair: keyPair, authorize: authorize)
                answer = (server, try server.receiveHello(hello), index)
                break
            } catch {
                failure = error
            }
        }
        guard let (server, reply, index) = answer else { throw failure ?? SyncError.closed }
        try await outbound.write(.frame(reply))
        let (accept, result) = try server.receiveAuth(try await next())
        try await outbound.write(.frame(accept))
        return (result, index)
    }

    /// A session under a retired key (``NetworkKeyRing``): it hands the peer the certificates and the
    /// revocations that sealed our newer keys to it, takes the peer's if it has newer ones of its
    /// own, and ends. Nothing else is said, whatever the peer sends.
    private nonisolated func rekey(
        _ connection: PeerConnection,
        peer: AuthorID,
        next: () async throws -> [UInt8],
        receiver: SecretStreamReceiver,
        channel: any Channel
    ) async throws {
        logger.notice("a peer on a retired network key: handing over the newer keys", metadata: ["peer": "\(peer)"])
        try await connection.send(.roster(try replica.certificates()))
        try await connection.send(.rekey(try replica.keyRevocations(sealedTo: peer)))
        // The peer was admitted (enrolled, not revoked): it gets the current key sealed to it, which no
        // revocation may have done (it was revoked when the key rotated and is no longer, or it was
        // enrolled before the rotation and started after it).
        let current = keyRing.withLock { $0.entries[0] }
        if current.generation > 0, let key = try? SigningPublicKey(bytes: peer.bytes),
            let sealed = try? SealedBox.seal(current.key, to: key)
        {
            try await connection.send(.networkKey(generation: current.generation, sealed: sealed))
        }
        let linger = Task {
            try? await time.sleep(for: SyncLimits.rekeyLinger)
            channel.close(promise: nil)
        }
        defer { linger.cancel() }
        while true {
            let (plaintext, _) = try receiver.open(try await next())
            switch try SyncMessage.decode(plaintext) {
            case .roster(let certificates):
                await learn(certificates, from: peer)
            case .rekey(let revocations):
                heardRekey(revocations, from: peer)
                return
            case .networkKey(let generation, let sealed):
                heardNetworkKey(generation: generation, sealed: sealed, from: peer)
            default:
                continue
            }
        }
    }

    /// Revocations a peer handed over in a rekey session: their sealed keys go into the replica
    /// (only the keys; the revocations count once they arrive in their chains) and the ring.
    private nonisolated func heardRekey(_ revocations: [SignedDelta], from peer: AuthorID) {
        var recorded = 0
        for evidence in revocations where (try? replica.recordNetworkKeys(from: evidence)) == true { recorded += 1 }
        logger.info("newer network keys handed over", metadata: ["peer": "\(peer)", "revocations": "\(recorded)"])
        refreshKeyRing()
    }

    /// A network key a peer sealed to us in a rekey session: kept (unless a key of that generation
    /// is already held) and opened into the ring, so the next dial uses it.
    private nonisolated func heardNetworkKey(generation: UInt64, sealed: [UInt8], from peer: AuthorID) {
        let fresh =
            (try? replica.recordHandedNetworkKey(
                generation: generation,
                sealed: sealed,
                for: me,
                receivedAtMillis: time.wallMillis
            )) ?? false
        logger.info(
            "a peer handed over the current network key",
            metadata: ["peer": "\(peer)", "generation": "\(generation)", "new": "\(fresh)"]
        )
        if fresh { refreshKeyRing() }
    }

    /// Checks the peer's credentials against the roster. A revoked kiosk is shown its revocation
    /// and disconnected; a key without a valid enrollment is disconnected without a word.
    private func admit(
        _ peer: AuthorID,
        credentials: SyncMessage,
        connection: PeerConnection,
        address: String
    ) async -> EnrollPayload? {
        if case .revoked(let evidence) = credentials {
            await heardRevocation(evidence, on: connection)
            return nil
        }
        guard case .credentials(let certificate) = credentials else {
            logger.warning(
                "refused a peer without credentials",
                metadata: ["peer": "\(peer)", "address": "\(address)"]
            )
            return nil
        }
        do {
            let before = try replica.membership(of: peer)
            if case .revoked(_, let evidence) = before {
                logger.warning("refused a revoked kiosk", metadata: ["peer": "\(peer)", "address": "\(address)"])
                try? await connection.send(.revoked(evidence))
                return nil
            }
            // A kiosk already on the roster only needs its certificate checked; only a new one is
            // written (one write transaction per new kiosk, not per session).
            let payload =
                before == .unknown
                ? try replica.admitCertificate(certificate, for: peer)
                : try Replica.verifyCertificate(certificate, for: peer, policy: replica.policy)
            guard payload.role == .kiosk else {
                logger.warning("refused an organizer device's key as a peer", metadata: ["peer": "\(peer)"])
                return nil
            }
            if before == .unknown {
                logger.notice("new kiosk on the roster", metadata: ["peer": "\(peer)"])
                for (other, session) in sessions where other != peer {
                    try? await session.send(.roster([certificate]))
                }
            }
            return payload
        } catch {
            logger.warning(
                "refused a kiosk that is not on the roster",
                metadata: ["peer": "\(peer)", "address": "\(address)", "reason": "\(error)"]
            )
            return nil
        }
    }

    /// Kiosks the replica's roster already holds (enrolled or revoked; a kiosk never becomes
    /// unknown again): every session starts with the peer's whole roster, and looking each one up
    /// again cost two queries per kiosk per session.
    private var rosterKnown: Set<AuthorID> = []

    /// Certificates a peer knows: record the valid ones, pass new ones on.
    private func learn(_ certificates: [SignedDelta], from peer: AuthorID) async {
        var fresh: [SignedDelta] = []
        for certificate in certificates {
            guard case .enroll(let payload)? = try? certificate.decode().body,
                !rosterKnown.contains(payload.kiosk)
            else { continue }
            guard (try? replica.membership(of: payload.kiosk)) == .unknown else {
                rosterKnown.insert(payload.kiosk)
                continue
            }
            guard (try? replica.admitCertificate(certificate, for: payload.kiosk)) != nil else { continue }
            rosterKnown.insert(payload.kiosk)
            fresh.append(certificate)
        }
        guard !fresh.isEmpty else { return }
        for (other, session) in sessions where other != peer {
            try? await session.send(.roster(fresh))
        }
    }

    /// Before an organizer device's first deltas go out, its certificate goes to every peer in
    /// session (later sessions get it with the roster at their start): a peer that held neither
    /// would refuse the deltas as from a stranger.
    private func announceDevices(of deltas: [SignedDelta]) async {
        // Every check-in here is our own: nothing to look at (this runs on each local commit).
        guard deltas.contains(where: { $0.author != me }) else { return }
        var fresh: [SignedDelta] = []
        for author in Set(deltas.map(\.author))
        where author != me && author != replica.policy.organizer && !announcedDevices.contains(author) {
            guard let certificate = try? replica.certificate(of: author) else { continue }
            announcedDevices.insert(author)
            rosterKnown.insert(author)
            fresh.append(certificate)
        }
        guard !fresh.isEmpty else { return }
        for session in sessions.values { try? await session.send(.roster(fresh)) }
    }

    /// Organizer devices whose certificates ``announceDevices(of:)`` sent out.
    private var announcedDevices: Set<AuthorID> = []

    /// A peer says we are revoked. Its word is a hint, never an order (DESIGN.md, "Irreversible acts
    /// need the strongest proof"): the signed revocation is judged by our own store like any delta,
    /// so a superseded branch of the organizer's fork or a replayed message changes nothing.
    /// - In force here afterwards: the daemon stops (and wipes only if ``RevocationVerdict`` allows).
    /// - Taken back here (see ``answer(to:)``): we keep serving and hand the peer the organizer's
    ///   delta that took it back, so its store takes it back too.
    /// - Otherwise (signed, naming us, but beyond what we hold): we stop and keep every file.
    private func heardRevocation(_ evidence: SignedDelta, on connection: PeerConnection) async {
        guard let payload = replica.verifiedRevocation(evidence), payload.kiosk == me else {
            logger.warning("ignored a revocation that is not signed by the organizer or names another kiosk")
            return
        }
        let (now, bound) = clockNow()
        if let report = try? await ingest([evidence], nowMillis: now, clockBoundMillis: bound).get(),
            !report.applied.isEmpty
        {
            stateVersion.add(1, ordering: .releasing)
            refreshHeads()
            refreshKeyRing()
        }
        if case .revoked? = try? replica.membership(of: me) {
            logger.critical("this kiosk was revoked by the organizer")
            onRevoked("a revocation of this kiosk is in force in its replica")
            return
        }
        if let answer = answer(to: evidence) {
            logger.warning(
                "a peer holds a revocation of this kiosk that no longer counts here; handing over what took it back",
                metadata: ["peer": "\(connection.peer)", "delta": "\(evidence.ref)", "answer": "\(answer.ref)"]
            )
            try? await connection.send(.deltas([answer]))
            return
        }
        logger.critical(
            "a peer showed a revocation of this kiosk that this replica cannot check against its own log yet; stopping, every file kept",
            metadata: ["peer": "\(connection.peer)", "delta": "\(evidence.ref)"]
        )
        onRevoked("a peer showed a signed revocation of this kiosk (\(evidence.ref)) beyond what its replica holds")
    }

    /// The organizer's delta that makes `evidence`, a revocation of this kiosk the store holds no
    /// longer in force, stop counting: our own version of its seq when the organizer's chain forked
    /// there and ours won, or the organizer's revocation of the device that signed it.
    private func answer(to evidence: SignedDelta) -> SignedDelta? {
        let held = try? replica.deltaHash(of: evidence.author, seq: evidence.seq)
        if let held, held != Blake2b.hash256(evidence.envelope) {
            guard evidence.author == replica.policy.organizer else { return nil }
            return try? replica.deltas(of: evidence.author, after: evidence.seq - 1, limit: 1)
                .first(where: { $0.seq == evidence.seq })
        }
        guard case .revoked(let watermark, let revocation)? = try? replica.membership(of: evidence.author),
            watermark < evidence.seq, revocation.author == replica.policy.organizer
        else { return nil }
        return revocation
    }

    /// A revoked peer's answer to our refusal: the organizer's own deltas, which prove themselves by
    /// their signature whoever carries them (the peer may hold the winning branch of an organizer
    /// fork whose losing branch revoked it). Nothing the peer wrote is taken.
    func appeal(_ deltas: [SignedDelta], from peer: AuthorID) async {
        let organizers = deltas.prefix(SyncLimits.appealDeltas).filter { $0.author == replica.policy.organizer }
        guard !organizers.isEmpty else { return }
        let (now, bound) = clockNow()
        guard let report = try? await ingest(Array(organizers), nowMillis: now, clockBoundMillis: bound).get() else {
            return
        }
        logger.notice(
            "a revoked peer handed over the organizer's deltas",
            metadata: ["peer": "\(peer)", "applied": "\(report.applied.count)"]
        )
        guard !report.applied.isEmpty else { return }
        stateVersion.add(1, ordering: .releasing)
        refreshHeads()
        if !report.revocations.isEmpty { await applyRevocations(report.revocations) }
        if !report.forkEvidence.isEmpty { await passOn(report.forkEvidence) }
        refreshKeyRing()
    }

    /// One session per pair of kiosks: of two, the one dialed by the kiosk with the lower key stays.
    private func register(_ connection: PeerConnection, dialed: HostPort?, enrollment: EnrollPayload) -> Bool {
        guard !stopped else {
            connection.close()
            return false
        }
        if let dialed { addressPeers[dialed] = connection.peer }
        if let existing = sessions[connection.peer] {
            let preferred = min(me, connection.peer)
            if existing.initiator == preferred || connection.initiator != preferred {
                connection.close()
                return false
            }
            existing.close()
        }
        sessions[connection.peer] = connection
        let now = time.wallMillis
        peerStates.withLock { states in
            states[connection.peer] = PeerState(
                peer: connection.peer,
                name: enrollment.name,
                location: enrollment.location,
                address: connection.address,
                connectedAtMillis: now,
                lastHeardMillis: now
            )
        }
        // What the peer sent in earlier sessions still counts (``PeerTally``).
        copyCounts(of: connection.peer)
        publishPeers()
        return true
    }

    /// The session is registered and its writer runs: the core says hello (or closes it).
    private func opened(_ connection: PeerConnection) {
        guard sessions[connection.peer] === connection else { return }
        drive(.sessionOpened(peer: connection.peer, initiator: connection.initiator))
    }

    private func unregister(_ connection: PeerConnection) {
        if sessions[connection.peer] === connection {
            sessions[connection.peer] = nil
            peerStates.withLock { $0[connection.peer] = nil }
            publishPeers()
            drive(.sessionClosed(peer: connection.peer))
            logger.info("session ended", metadata: ["peer": "\(connection.peer)"])
            // Its dial loop, pausing while the session lasted, looks again now.
            for (address, peer) in addressPeers where peer == connection.peer { dials.wake(address) }
        }
    }

    private func publishPeers() {
        let names = sessions.values.map { "\($0.peer.hex)@\($0.address)" }.sorted()
        connectedPeers.withLock { $0 = names }
    }

    /// A peer's message for the core. Returns at once unless the core paused reading the peer
    /// (its deltas wait for the store); then once it resumes: the receive loop waits, and that is
    /// the back-pressure on the peer.
    private func receive(_ message: SyncMessage, from connection: PeerConnection) async {
        let peer = connection.peer
        guard sessions[peer] === connection else { return }
        drive(.frameReceived(from: peer, message))
        while pausedReading.contains(peer) {
            await withCheckedContinuation { readAheadWaiters[peer, default: []].append($0) }
        }
    }

    /// The core paused or resumed reading a peer.
    func reading(_ peer: AuthorID, paused: Bool) {
        if paused {
            pausedReading.insert(peer)
        } else {
            pausedReading.remove(peer)
            for waiter in readAheadWaiters.removeValue(forKey: peer) ?? [] { waiter.resume() }
        }
    }

    /// Group commits under way: the core asks for one at a time, and the next may be asked for
    /// while the task of the one before is still finishing.
    private var commitsUnderway = 0
    /// Callers of ``storeDrained()`` waiting for the commit under way.
    private var drainWaiters: [CheckedContinuation<Void, Never>] = []

    /// Commits the core's group off the actor, on ``storeQueue``: sessions' messages are read and
    /// driven meanwhile, and what they ask to store joins the core's next group.
    func store(_ group: StoreGroup) {
        commitsUnderway += 1
        Task {
            await self.commit(group)
            self.commitsUnderway -= 1
            guard self.commitsUnderway == 0 else { return }
            for waiter in self.drainWaiters { waiter.resume() }
            self.drainWaiters = []
        }
    }

    /// Returns once no group commit is under way. The commit runs off the actor, so the sessions can
    /// all have ended while one is still writing; whoever closes the replica after ``run()`` must
    /// not close it under a transaction.
    private func storeDrained() async {
        while commitsUnderway > 0 { await withCheckedContinuation { drainWaiters.append($0) } }
    }

    /// One transaction for a group; the core hears its result (and attributes it to its requests).
    private func commit(_ group: StoreGroup) async {
        let (now, bound) = clockNow()
        let report: IngestReport
        do {
            report = try await ingest(group.deltas, nowMillis: now, clockBoundMillis: bound).get()
        } catch {
            logger.error("cannot store deltas from a peer", metadata: ["error": "\(error)"])
            drive(.stored(.failed(group.id)))
            return
        }
        log(report)
        commitTrace?.record(report.applied, origin: .remote)
        if let hlc = report.newestAcceptedHLC { observeHLC(hlc) }
        if !report.applied.isEmpty { stateVersion.add(1, ordering: .releasing) }
        drive(.stored(StoreResult(id: group.id, report: report)))
        // A fork of the organizer's chain may have dropped a branch's revocations: what they set aside
        // comes back through the same step.
        if !report.revocations.isEmpty || !report.organizerForks.isEmpty { await applyRevocations(report.revocations) }
    }

    /// What a group commit's report says for the operator.
    private nonisolated func log(_ report: IngestReport) {
        if let error = report.stoppedBy {
            logger.error("cannot store all deltas from peers", metadata: ["error": "\(error)"])
        }
        // One critical line per cut (a fork proved, or proved at a lower seq): copies of the
        // same evidence arriving again log nothing, so a forking kiosk cannot flood the log.
        for ref in report.organizerForks {
            logger.critical(
                "FORK: the organizer key signed two versions of one seq (used on two machines?); every kiosk keeps the earlier one and drops the other's branch: sign again what it held, and give each machine an organizer device key (muster venue add-device)",
                metadata: ["delta": "\(ref)"]
            )
        }
        for ref in report.newForks {
            logger.critical(
                "FORK: an author signed two different deltas with the same seq; its chain is cut there",
                metadata: ["delta": "\(ref)"]
            )
        }
        for ref in report.clockWarnings {
            logger.warning("delta stamped beyond the clock bound", metadata: ["delta": "\(ref)"])
        }
    }

    /// One group commit of peers' deltas on ``storeQueue``, so the actor is free while SQLite works.
    private nonisolated func ingest(
        _ deltas: [SignedDelta],
        nowMillis: UInt64,
        clockBoundMillis: UInt64
    ) async -> Result<IngestReport, ReplicaError> {
        let replica = self.replica
        return await withCheckedContinuation { continuation in
            storeQueue.async {
                continuation.resume(
                    returning: Result { () throws(ReplicaError) -> IngestReport in
                        try replica.ingest(
                            deltas,
                            nowMillis: nowMillis,
                            clockBoundMillis: clockBoundMillis,
                            durable: false
                        )
                    }
                )
            }
        }
    }

    /// Fork evidence from an ingest outside the core (an appeal) to the core, after the store's
    /// heads (the cut truncated a log): it goes to every peer not sent it yet.
    private func passOn(_ evidence: [SignedDelta]) async {
        refreshHeads()
        var unique: [SignedDelta] = []
        for delta in evidence where !unique.contains(delta) { unique.append(delta) }
        drive(.forkEvidence(unique))
    }

    /// A revocation arrived: the revoked kiosk's sessions end (after it is shown why), the rotated
    /// network key is opened, and if it names this kiosk, the daemon stops.
    private func applyRevocations(_ revocations: [RevokePayload]) async {
        refreshKeyRing()
        // A revocation taken back (its device revoked, its branch of an organizer fork dropped)
        // gives back what it had set aside.
        let (now, bound) = clockNow()
        if let restored = try? replica.restoreSetAside(nowMillis: now, clockBoundMillis: bound),
            !restored.applied.isEmpty
        {
            stateVersion.add(1, ordering: .releasing)
            logger.notice(
                "took back deltas a revocation had set aside",
                metadata: ["deltas": "\(restored.applied.count)"]
            )
        }
        refreshHeads()
        for payload in revocations {
            if payload.kiosk == me {
                // Only a revocation still in force: one the store took back in the same batch (the
                // losing branch of the organizer's fork) must not stop the kiosk.
                guard case .revoked? = try? replica.membership(of: me) else { continue }
                logger.critical("this kiosk was revoked by the organizer")
                onRevoked("a revocation of this kiosk is in force in its replica")
                continue
            }
            if let session = sessions[payload.kiosk] {
                if case .revoked(_, let evidence)? = try? replica.membership(of: payload.kiosk) {
                    try? await session.send(.revoked(evidence))
                }
                logger.notice("closing the session of a revoked kiosk", metadata: ["peer": "\(payload.kiosk)"])
                session.close()
            }
        }
    }

    /// Tells the core the store's heads (a revocation may have truncated a log).
    func refreshHeads() {
        if let heads = try? replica.heads() { drive(.storeHeads(heads)) }
    }

    /// The replica's digest, recomputed only after something changed.
    private nonisolated func currentDigest() -> String? {
        let version = stateVersion.load(ordering: .acquiring)
        if let cached = digestCache.withLock({ $0 }), cached.version == version { return cached.digest }
        guard let digest = try? replica.digest() else { return nil }
        digestCache.withLock { $0 = (version, digest) }
        return digest
    }

    /// Records what a peer's message says about it (liveness, heads, digest).
    private nonisolated func note(_ message: SyncMessage, from peer: AuthorID) {
        let now = time.wallMillis
        peerStates.withLock { states in
            guard var state = states[peer] else { return }
            state.lastHeardMillis = now
            switch message {
            case .hello(_, let heads), .heads(let heads):
                state.peerHas = Dictionary(heads.map { ($0.author, $0.seq) }, uniquingKeysWith: max)
                peersHold.withLock { held in
                    for head in heads where head.author != me {
                        held[peer, default: [:]][head.author] = max(held[peer]?[head.author] ?? 0, head.seq)
                    }
                }
            case .digest(let digest):
                state.digest = digest
            default:
                break
            }
            states[peer] = state
        }
        // Outside the lock: it may write to the replica.
        switch message {
        case .hello(_, let heads), .heads(let heads):
            if let ours = heads.first(where: { $0.author == me }) { heldElsewhere(ours, by: peer) }
        default:
            break
        }
    }

    /// A peer's head of our own chain: what another kiosk is known to hold of ours, the proof
    /// ``RevocationVerdict`` asks for before a wipe. Written when it moves for that peer, at most
    /// once per ``SyncLimits/heldElsewhereWriteInterval`` (``HeldElsewhereReports``).
    private nonisolated func heldElsewhere(_ head: AuthorHead, by peer: AuthorID) {
        let now = time.uptime
        guard let due = heldByPeers.withLock({ $0.heard(head, from: peer, now: now) }) else { return }
        record(due, by: peer, at: now)
    }

    private nonisolated func record(_ head: AuthorHead, by peer: AuthorID, at now: Duration) {
        if (try? replica.recordHeldElsewhere(head, by: peer)) == true {
            heldByPeers.withLock { $0.written(head, by: peer, now: now) }
        }
    }

    /// Writes every peer's report of our chain still waiting for its interval: before a revocation
    /// verdict reads them, and when the service stops.
    public nonisolated func recordPendingHeldElsewhere() {
        let now = time.uptime
        for (peer, head) in heldByPeers.withLock({ $0.takePending() }) { record(head, by: peer, at: now) }
    }

    /// Each peer in session with how far apart the two replicas are, for status output.
    public nonisolated func peerReport() -> [PeerReport] {
        let states = peerStates.withLock { Array($0.values) }
        guard !states.isEmpty else { return [] }
        let ours = (try? replica.heads()) ?? []
        // The cached digest: systemd's STATUS= line asks every 10 s, and hashing the whole replica
        // each time would cost an idle kiosk CPU for nothing.
        let digest = currentDigest()
        return states.sorted { $0.name < $1.name }.map { state in
            PeerReport(
                state: state,
                behind: state.behind(ours: ours),
                ahead: state.ahead(ours: ours),
                digestMatches: state.digest.flatMap { theirs in digest.map { $0 == theirs } }
            )
        }
    }

}

/// When a peer was last heard from; shared by a connection's reader, its liveness watchdog and the
/// channel's ``LivenessHandler``. While the reader stores a batch (``busy(_:)``), silence does not count.
final class LastHeard: Sendable {
    private let time: any TimeSource
    /// When the peer was last heard (the time source's uptime), and how many stores of its data run.
    private let state: Mutex<(instant: Duration, busy: Int)>

    init(time: any TimeSource) {
        self.time = time
        state = Mutex((time.uptime, 0))
    }

    func now() {
        let now = time.uptime
        state.withLock { $0.instant = now }
    }
    var silence: Duration {
        let now = time.uptime
        return state.withLock { now - $0.instant }
    }
    var isBusy: Bool { state.withLock { $0.busy > 0 } }

    /// Marks the start or end of our own work on the peer's data; the end counts as hearing it.
    func busy(_ starting: Bool) {
        let now = time.uptime
        state.withLock {
            $0.busy += starting ? 1 : -1
            $0.instant = now
        }
    }
}

/// Notes every read on the socket as life, on the event loop, before frames wait for the reader.
final class LivenessHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let heard: LastHeard

    init(heard: LastHeard) { self.heard = heard }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        heard.now()
        context.fireChannelRead(data)
    }
}

enum SyncError: Error {
    case closed
    case connectedToSelf
    case notEnrolled
}
