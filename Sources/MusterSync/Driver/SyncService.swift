import Foundation
public import Logging
public import MusterCore
public import MusterCrypto
import MusterRules
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
    let storeQueue = DispatchQueue(label: "muster.sync.store")

    /// Shut down: no new timers.
    var stopped = false

    nonisolated var time: any TimeSource { configuration.time }

    /// Which peer key answered at an address, so a dial loop does not redial a connected peer.
    var addressPeers: [HostPort: AuthorID] = [:]

    let localDeltas: AsyncStream<[SignedDelta]>

    nonisolated let localContinuation: AsyncStream<[SignedDelta]>.Continuation

    let dialRequests: AsyncStream<HostPort>

    nonisolated let dialContinuation: AsyncStream<HostPort>.Continuation

    /// Snapshot for status output, readable without awaiting the actor.
    public nonisolated let connectedPeers = Mutex<[String]>([])

    /// What each peer in session said last (heads, digest, when), for `muster status`.
    public nonisolated let peerStates = Mutex<[AuthorID: PeerState]>([:])

    /// What each peer's heads said it holds of each author's chain, this run, by peer: what
    /// ``RevocationVerdict`` needs before a kiosk may wipe other kiosks' check-ins with its own.
    public nonisolated let peersHold = Mutex<[AuthorID: [AuthorID: UInt64]]>([:])

    /// What each peer showed of our own chain this run, and what of it is recorded.
    nonisolated let heldByPeers = Mutex(HeldElsewhereReports(interval: SyncLimits.heldElsewhereWriteInterval))

    /// The highest seq of this kiosk's own chain published (``published(_:)``): what a local write
    /// waits to see held by peers (``awaitCopies(_:within:)``).
    nonisolated let ownPublished = Atomic<UInt64>(0)

    /// The fleet's statuses and which peers read them (``FleetStatuses``).
    nonisolated let fleet = Mutex(FleetStatuses())

    /// This kiosk's printer in words and its free disk, for its status (``publishOwnStatus()``).
    let describeSelf: @Sendable () -> (printer: String, freeDiskBytes: UInt64)

    /// Local writes waiting for peers to hold them (`ack_copies`).
    nonisolated let copyWaiters = Mutex(CopyWaiters<CheckedContinuation<CopyOutcome, Never>>())

    /// Badges relayed to and from peers (`[badge] fallback`, ``PrintRelays``).
    nonisolated let printRelays = Mutex(PrintRelays<CheckedContinuation<RelayedPrintReply, Never>>())

    /// What prints a peer's badge on this kiosk's printer; nil until the daemon's badge desk is set
    /// (``servePrints(_:)``), and then a peer asking is told there is no printer here.
    nonisolated let printService = Mutex<(@Sendable (RelayedPrint) async -> RelayedPrintReply)?>(nil)

    /// Bumped by every change to the replica, so the digest is recomputed only when it can differ.
    nonisolated let stateVersion = Atomic<UInt64>(0)

    /// The last digest computed and the state version it belongs to.
    nonisolated let digestCache = Mutex<(version: UInt64, digest: String)?>(nil)

    /// The port actually bound (useful when configured as 0).
    public nonisolated let boundPort = Mutex<Int?>(nil)

    /// Accepted connections still in their handshake, capped globally and per address.
    public nonisolated let unauthenticated = UnauthenticatedConnections()

    /// The dial loops running, by address (``dial(host:port:giveUpAfter:onEnd:)``).
    nonisolated let dials = DialRegistry()

    /// When each peer was last heard this run, and the solitude last logged (``solitude()``).
    nonisolated let heard = Mutex(HeardPeers())

    /// When this service was made: "alone since" when no peer has been heard at all.
    nonisolated let startedMillis: UInt64

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
        describeSelf: @escaping @Sendable () -> (printer: String, freeDiskBytes: UInt64) = { ("none", 0) },
        commitTrace: CommitTrace? = nil
    ) {
        self.describeSelf = describeSelf
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
        startedMillis = configuration.time.wallMillis
        roster = RosterGossip(me: me, organizer: replica.policy.organizer)
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
        if let own = deltas.last(where: { $0.author == me }) { ownPublished.max(own.seq, ordering: .releasing) }
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

    /// What roster gossip has seen and announced (``RosterGossip``).
    var roster: RosterGossip

    /// Group commits under way: the core asks for one at a time, and the next may be asked for
    /// while the task of the one before is still finishing.
    var commitsUnderway = 0

    /// Callers of ``storeDrained()`` waiting for the commit under way.
    var drainWaiters: [CheckedContinuation<Void, Never>] = []
}
