import MusterCore
import MusterCrypto
import MusterRules
import MusterSync

/// One simulated kiosk: its store (kept across crashes) and the state of its current life.
final class SimKiosk {
    /// A commit the kiosk's store has under way; lost if the kiosk crashes before it is done.
    enum StoreJob {
        /// The group commit its core asked for (``SyncOutput/store(_:)``).
        case ingest(StoreGroup)
        case checkIn(index: Int)
    }

    let index: Int
    let id: AuthorID
    let key: SigningKeyPair
    let store: any KioskStore
    /// Processing and storing take this many times longer (a slow kiosk).
    let slowness: Int64
    /// How far the wall clock is off, and how fast the monotonic clock runs (clock skew).
    let wallOffsetMillis: Int64
    let rate: Double

    /// The sync core of this life (what `musterd` runs), nil while the kiosk is down.
    var core: SyncCore?
    var up = true
    /// Stopped for good by its own revocation (``SimOptions/revoke``): never restarted.
    var revoked = false
    var incarnation: UInt64 = 0
    /// Virtual time of the current life's start (the monotonic clock's zero).
    var bootTime: VirtualTime = 0
    var clock = HybridClock()
    var cpuBusyUntil: VirtualTime = 0
    /// Whether the store has a commit under way (in ``jobs``): one at a time, as SQLite's one writer.
    var storeBusy = false
    /// Check-ins waiting for the store. They go before the core's group (as
    /// `Replica.writeForPerson`, which lets a check-in in at the next author run of a group; here
    /// a group under way is finished first).
    var waitingCheckIns: [Int] = []
    /// The group the core asked to store while the store was busy with a check-in.
    var waitingGroup: StoreGroup?
    /// The established session with each peer (by index), by session id.
    var sessions: [Int: UInt64] = [:]
    /// Dials under way, by peer index.
    var dialing: Set<Int> = []
    var timers: [SyncTimer: UInt64] = [:]
    var nextTimerGeneration: UInt64 = 0
    var jobs: [UInt64: StoreJob] = [:]
    var nextJob: UInt64 = 0
    /// Peers (by index) whose frames the core paused reading (``SyncOutput/pauseReading(_:)``), and
    /// the frames that arrived meanwhile, read in order once it resumes.
    var paused: Set<Int> = []
    var heldFrames: [Int: [(message: SyncMessage, session: UInt64)]] = [:]

    /// How many deltas the store holds, and an order-free hash of which (for the convergence probe).
    var deltaCount = 0
    var setHash: UInt64 = 0
    var peakSessions = 0
    var framesReceived = 0

    /// The network keys its replica holds, and the ring of those it may use (``NetworkKeyRing``).
    var keys = KeyTable()
    var keyRing: NetworkKeyRing
    /// Dials in a row that failed, by peer: which key of the ring the next dial uses
    /// (``NetworkKeyRing/dialKey(attempt:nowMillis:)``), as the daemon's dial loop counts them.
    var dialAttempts: [Int: Int] = [:]
    var copiesReceived = 0

    init(
        index: Int,
        id: AuthorID,
        key: SigningKeyPair,
        store: any KioskStore,
        networkKey: SecureBytes,
        slowness: Int64,
        wallOffsetMillis: Int64,
        rate: Double
    ) {
        self.index = index
        self.id = id
        self.key = key
        self.store = store
        keyRing = NetworkKeyRing(venueKey: networkKey, generation: 0)
        self.slowness = slowness
        self.wallOffsetMillis = wallOffsetMillis
        self.rate = rate
    }

    /// The kiosk's monotonic clock at virtual time `time`.
    func uptime(at time: VirtualTime) -> Duration {
        .nanoseconds(Int64((Double(time - bootTime) * rate).rounded(.down)))
    }

    /// The virtual time at which the kiosk's monotonic clock reads `uptime`.
    func virtualTime(ofUptime uptime: Duration) -> VirtualTime {
        bootTime + Int64((Double(uptime.nanoseconds) / rate).rounded(.up))
    }

    /// The kiosk's wall clock at virtual time `time`, in Unix milliseconds.
    func wallMillis(at time: VirtualTime) -> UInt64 {
        UInt64(Int64(SimVenue.startMillis) + time / VirtualTime.millisecond + wallOffsetMillis)
    }

    /// Counts a delta newly in the store.
    func noteStored(_ delta: SignedDelta) {
        deltaCount += 1
        setHash &+= Self.refHash(delta)
    }

    /// A 64-bit hash of a delta's identity and bytes (its signature's first 8 bytes, mixed with the seq).
    static func refHash(_ delta: SignedDelta) -> UInt64 {
        var value: UInt64 = delta.seq &* 0x9E37_79B9_7F4A_7C15
        for byte in delta.signature.prefix(8) { value = (value << 8 | value >> 56) ^ UInt64(byte) }
        return value &* 0xBF58_476D_1CE4_E5B9
    }
}
