public import MusterCore

extension SyncCore {
    /// The core's parameters. Durations are of the driver's monotonic clock.
    public struct Configuration: Sendable {
        /// This kiosk.
        public var me: AuthorID
        /// The replica's epoch (sent in every hello, so a recreated replica is recognized).
        public var epoch: String
        /// The organizer: its log goes first in a hello (it may enroll or revoke the other authors).
        public var organizer: AuthorID?
        /// Up to this many kiosks known (us included), every kiosk keeps a session with every other
        /// (full mesh: one hop, no relayed copies). Beyond it, a bounded random active view (HyParView).
        /// (``FullMesh`` holds the default and its bound.)
        public var fullMeshThreshold = FullMesh.defaultThreshold
        /// HyParView's active view: sessions this kiosk opens towards when beyond the full mesh.
        public var activeView = 5
        /// Sessions accepted at most beyond the full mesh (the active view plus room for joiners).
        public var maxSessions = 6
        /// HyParView's passive view: kiosks known but not in session, candidates to replace a lost one.
        public var passiveView = 30
        /// Deltas of one peer waiting for the store before its session is read no further
        /// (``SyncOutput/pauseReading(_:)``).
        public var readAheadDeltas = SyncLimits.readAheadDeltas
        /// Most deltas in one group commit (``StoreGroup``).
        public var groupCommitDeltas = SyncLimits.groupCommitDeltas
        /// Deltas waiting to be written to one peer before it is taken for not reading.
        public var maxQueuedDeltas = SyncLimits.maxQueuedDeltas
        /// Most deltas one repair request asks for: a lagging kiosk is repaired in such chunks, one
        /// author range at a time, each from one peer. Each chunk costs a round trip and a pause in
        /// the stream: with 2,000 a fresh kiosk took 5.1–7.9 s to fetch a 50,000-delta attendee list
        /// in the lab, with 20,000 2.1 s (0d8914f; BENCHMARKS.md, "What each optimisation gained"). A range
        /// weighs its size on the peer's queue (``maxQueuedDeltas``), which is read from the replica
        /// page by page, so a larger chunk costs no memory.
        public var repairChunk: UInt64 = 20_000
        /// A repair request that made no progress for this long moves to another peer.
        public var repairTimeout: Duration = .seconds(3)
        /// A peer may ask for the same deltas again after this long (its store refused them).
        public var reserveWindow: Duration = .seconds(3)
        /// Plumtree: how long announced deltas may take to arrive by eager push before a graft.
        public var graftTimeout: Duration = .milliseconds(40)
        /// Beyond the full mesh, deltas for an eager peer are held back this long and go out together
        /// (as Nagle's algorithm or Kafka's linger do): on a busy overlay a kiosk otherwise relays
        /// every stored group as its own small frame to each tree neighbour, and what a frame costs
        /// (a seal, a syscall, a wakeup and a transaction on the receiver) dominated the 50-kiosk
        /// burst. A full mesh sends at once: its one hop is the latency a small venue sees.
        public var eagerLinger: Duration = .milliseconds(20)
        /// Plumtree: lazy announcements are batched for this long.
        public var lazyInterval: Duration = .milliseconds(50)
        public var heartbeatInterval = SyncLimits.heartbeatInterval
        /// A session silent this long (and not waiting on our store) is closed. Nil: the driver judges
        /// silence itself (the daemon counts frames on the event loop, where they arrive even while the
        /// service is busy).
        public var silenceTimeout: Duration? = SyncLimits.silenceTimeout
        /// ``SyncLimits/helloTimeout``; nil never closes a session for want of a hello.
        public var helloTimeout: Duration? = SyncLimits.helloTimeout
        /// How often liveness is checked.
        public var livenessTick: Duration = .milliseconds(250)
        public var antiEntropyInterval = SyncLimits.antiEntropyInterval
        public var sessionsAnnouncementDelay = SyncLimits.sessionsAnnouncementDelay
        /// A session asked for and neither opened nor failed by then is given up (a connect and the
        /// handshake's deadline, with room to spare).
        public var openTimeout: Duration = .seconds(10)
        /// How often membership is checked (a missing active peer replaced from the passive view).
        public var membershipInterval: Duration = .seconds(1)
        /// Beyond the full mesh, a kiosk that refused a session we opened (view full) is not asked
        /// again for this long, unless we have no session at all.
        public var refusedBackoff: Duration = .seconds(30)

        public init(me: AuthorID, epoch: String, organizer: AuthorID? = nil) {
            self.me = me
            self.epoch = epoch
            self.organizer = organizer
        }
    }
}
