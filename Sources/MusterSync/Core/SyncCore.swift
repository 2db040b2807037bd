public import MusterCore
import MusterCrypto
public import MusterRules

/// The replication protocol of one kiosk, without I/O: a value-type state machine fed
/// ``SyncInput``s with the time they happened, answering with ``SyncOutput``s for a driver to carry
/// out (swift-nio-ssh's `SSHConnectionStateMachine` is the model).
///
/// The daemon's ``SyncService`` drives it over NIO; `muster-sim` drives the same machine on a
/// simulated network in virtual time. Inside there is no clock (time comes with each input), no
/// randomness but the seeded ``SplitMix64``, and no store: it tracks the heads the store holds and
/// asks for reads (``SyncOutput/sendRange(to:_:)``) and writes (``SyncOutput/store(_:)``).
///
/// What it does:
/// - **Sessions**: one ``SessionMachine`` each; hello, heads, heartbeats, silence.
/// - **Broadcast**: a new delta is pushed eagerly to the peers on the tree and announced lazily
///   (``SyncMessage/ihave(_:)``) to the others (Plumtree); a copy by eager push prunes its sender;
///   an announcement not followed by the delta grafts the announcer. Nothing is relayed to a peer in
///   session with the kiosk it came from (it hears it there), so a full mesh carries each delta once
///   per link.
/// - **Repair by pull**: a kiosk that lacks deltas asks for them, one author range at a time, from
///   one peer; no two peers are asked for the same range, and a request that stalls moves on.
/// - **Membership**: a full mesh up to ``Configuration/fullMeshThreshold`` kiosks, beyond it an
///   active view of ``Configuration/activeView`` (HyParView) and at most ``Configuration/maxSessions``.
public struct SyncCore: Sendable {
    public let configuration: Configuration
    public var me: AuthorID { configuration.me }

    /// What the store holds, per author (kept from local commits and store results).
    public internal(set) var heads: [AuthorID: AuthorHead]
    public internal(set) var sessions: [AuthorID: SessionMachine] = [:]
    /// What each peer has sent, across its sessions (one entry per peer ever in session: enrolled kiosks).
    public internal(set) var tallies: [AuthorID: PeerTally] = [:]
    /// Kiosks known but not in session (HyParView's passive view).
    public internal(set) var passive: [AuthorID] = []
    /// One outstanding repair per author: which peer was asked for which range.
    public internal(set) var repairs: [AuthorID: Repair] = [:]
    /// Bumped by every change to the store's content.
    public internal(set) var stateVersion: UInt64 = 0

    public struct Repair: Sendable, Equatable {
        public let peer: AuthorID
        public let range: SeqRange
        /// When the request moves to another peer unless the head moved by then.
        var deadline: Duration
        /// The author's head when the deadline was last set.
        var progress: UInt64
    }

    /// Deltas handed to the store and not yet reported, per author: the highest seq in flight.
    var inFlight: [AuthorID: UInt64] = [:]
    /// Requests waiting for the next group (``SyncCore/startGroup(into:)``), oldest first.
    var waitingStores: [StoreRequest] = []
    /// The group the store has under way, and its requests.
    var committing: (id: UInt64, requests: [StoreRequest])?
    var nextStoreID: UInt64 = 1
    var nextGroupID: UInt64 = 1
    /// Per peer, its deltas waiting for the store (queued or in the group under way), and the
    /// peers not read until they drop (``SyncOutput/pauseReading(_:)``). Kept per peer, not per
    /// session: a reconnected session's reader meets the old one's backlog.
    var readAhead: [AuthorID: Int] = [:]
    var pausedReading: Set<AuthorID> = []
    /// Fork evidence from a store result, passed on once the store's heads are in (the cut
    /// truncated a log): ``SyncOutput/readHeads``.
    var pendingEvidence: [SignedDelta] = []
    /// Announced deltas that did not arrive yet: the highest seq announced and by whom, first first.
    var announced: [AuthorID: (through: UInt64, announcers: [AuthorID], deadline: Duration)] = [:]
    /// Peers that let a repair of an author stall: asked last next time.
    var stalled: [AuthorID: Set<AuthorID>] = [:]
    /// Sessions asked for (`.openSession`) and not yet opened or failed, with when to stop waiting:
    /// a driver that cannot act on a request (the daemon already dials that address, the simulator
    /// already holds a session) may never answer, and a request waited on forever would keep its
    /// slot in the active view.
    /// Every kiosk ever heard of (discovered, in session, or named in a peer's session list), up
    /// to ``SyncCore/maxKnown``: whether the venue is small enough for a full mesh. Not the passive
    /// view, which is bounded at the threshold itself: a kiosk whose passive view had shrunk by one
    /// took a 1,000-kiosk venue for a full mesh and waited for higher keys to dial it.
    public internal(set) var known: Set<AuthorID> = []
    /// Bound on ``known`` (a venue has far fewer kiosks).
    static let maxKnown = 100_000
    public internal(set) var opening: [AuthorID: Duration] = [:]
    /// Beyond the full mesh: kiosks that closed a session we opened before saying hello (their
    /// active view was full), and until when they are not asked again. Without it every kiosk short
    /// of its view redialed full ones every second: in a 50-kiosk burst each kiosk went through
    /// about 200 handshakes, rosters included, most of them refused.
    public internal(set) var refusedUntil: [AuthorID: Duration] = [:]
    var recent = RecentDeltas()
    /// Authors the store cut at a fork (``RequestOutcome/forkedAuthors``): what peers hold of them
    /// beyond our head is never asked for, or every refusal would be asked for again, forever.
    var forked: Set<AuthorID> = []
    /// Our version of a seq sent to a peer whose head there has another hash, and when: the peer's
    /// store then holds both versions and proves the fork. Sent again only after
    /// ``forkResendInterval`` (a frame lost on the way is not lost for good; a peer that keeps
    /// showing the other version gets it at that pace, not on every heads message).
    var forkProbes: [ForkProbe: Duration] = [:]
    /// Per forked author, the two signed versions at its lowest known cut (``passOn(_:now:into:)``).
    var forkEvidence: [AuthorID: [SignedDelta]] = [:]

    /// How often one peer may be sent the same fork probe or the same evidence again.
    var forkResendInterval: Duration { configuration.antiEntropyInterval * 2 }

    struct ForkProbe: Hashable {
        let peer: AuthorID
        let author: AuthorID
        let seq: UInt64
    }
    var digest: String?
    public internal(set) var timers: [SyncTimer: Duration] = [:]
    var sessionLostSinceAnnouncement = false
    var rng: SplitMix64

    /// A core for a kiosk whose store holds `heads`; `seed` drives every random choice.
    public init(configuration: Configuration, heads: [AuthorHead], seed: UInt64) {
        self.configuration = configuration
        self.heads = Dictionary(heads.map { ($0.author, $0) }, uniquingKeysWith: { $0.seq >= $1.seq ? $0 : $1 })
        rng = SplitMix64(seed: seed)
    }

    /// Feeds one input that happened at `now` (monotonic); returns what to do, in order.
    public mutating func handle(_ input: SyncInput, now: Duration) -> [SyncOutput] {
        var out: [SyncOutput] = []
        switch input {
        case .sessionOpened(let peer, let initiator): sessionOpened(peer, initiator: initiator, now: now, into: &out)
        case .sessionClosed(let peer): sessionClosed(peer, now: now, into: &out)
        case .openFailed(let peer): opening[peer] = nil
        case .peerDiscovered(let peer):
            discovered(peer)
            arm(.membership, at: now, into: &out)
        case .frameReceived(let peer, let message): received(message, from: peer, now: now, into: &out)
        case .localCommit(let deltas): committedLocally(deltas, now: now, into: &out)
        case .stored(let result): groupStored(result, now: now, into: &out)
        case .forkEvidence(let evidence): passOn(evidence, now: now, into: &out)
        case .written(let peer, let weight):
            sessions[peer]?.queued -= weight
            if let queued = sessions[peer]?.queued, queued < 0 { sessions[peer]?.queued = 0 }
        case .digest(let digest): self.digest = digest
        case .storeHeads(let heads):
            let fresh = Dictionary(heads.map { ($0.author, $0) }, uniquingKeysWith: { $0.seq >= $1.seq ? $0 : $1 })
            if fresh != self.heads {
                // A chain the store cut (a revocation, a fork) is no longer held past its new head:
                // copies of what was cut must reach the store again if the cut is taken back.
                for (author, held) in self.heads where (fresh[author]?.seq ?? 0) < held.seq {
                    recent.forget(author, after: fresh[author]?.seq ?? 0)
                }
                self.heads = fresh
                // Heads may have fallen: a session's claims may be ahead again.
                for index in sessions.indices { sessions.values[index].mayBeAhead = nil }
                stateVersion &+= 1
                scheduleRepairs(now: now, into: &out)
            }
            if !pendingEvidence.isEmpty {
                let evidence = pendingEvidence
                pendingEvidence = []
                passOn(evidence, now: now, into: &out)
            }
        case .timerFired(let timer): fired(timer, now: now, into: &out)
        }
        return account(out, now: now)
    }

    /// The heads in the order a hello carries them: the organizer's first.
    public var orderedHeads: [AuthorHead] {
        let all = heads.values.sorted { $0.author < $1.author }
        guard let organizer = configuration.organizer else { return all }
        return all.filter { $0.author == organizer } + all.filter { $0.author != organizer }
    }

    /// How far this kiosk holds or is storing `author`'s log.
    func effective(_ author: AuthorID) -> UInt64 {
        max(heads[author]?.seq ?? 0, inFlight[author] ?? 0)
    }

    /// Whether every kiosk keeps a session with every other (few enough kiosks known).
    public var isFullMesh: Bool { known.count + 1 <= configuration.fullMeshThreshold }

    /// Whether a session with `peer` should be dialed: every kiosk on a full mesh; beyond it, only
    /// the ones this core asked to open (``SyncOutput/openSession(_:)``), not every kiosk ever met.
    public func wantsSession(with peer: AuthorID) -> Bool {
        isFullMesh || opening[peer] != nil
    }

    /// Sessions the core counts as live (not closing).
    var livePeers: [AuthorID] {
        // Read in place: filtering `sessions.values` copied every session (its tables retained and
        // released), on every broadcast and repair round.
        var peers: [AuthorID] = []
        peers.reserveCapacity(sessions.count)
        var index = sessions.startIndex
        while index != sessions.endIndex {
            if sessions.values[index].state != .closing { peers.append(sessions.keys[index]) }
            sessions.formIndex(after: &index)
        }
        return peers.sorted()
    }

    /// `peer`'s session, changed in place by `body`: one lookup, and none of its tables copied (a
    /// session read out and written back retained and released each of them). `body` cannot reach the
    /// core; what it needs of it is read before.
    @inline(__always)
    mutating func inSession<Result>(_ peer: AuthorID, _ body: (inout SessionMachine) -> Result) -> Result? {
        guard let index = sessions.index(forKey: peer) else { return nil }
        return body(&sessions.values[index])
    }

    /// Arms `timer` for `deadline` unless it is already due earlier.
    mutating func arm(_ timer: SyncTimer, at deadline: Duration, into out: inout [SyncOutput]) {
        if let existing = timers[timer], existing <= deadline { return }
        timers[timer] = deadline
        out.append(.setTimer(timer, at: deadline))
    }

    /// Every output passes here: sends note the time (heartbeats are due only after our silence) and
    /// weigh on the peer's queue; a peer whose queue overflows is closed instead of sent more.
    mutating func account(_ outputs: [SyncOutput], now: Duration) -> [SyncOutput] {
        var result: [SyncOutput] = []
        result.reserveCapacity(outputs.count)
        for output in outputs {
            guard let peer = output.recipient else {
                result.append(output)
                continue
            }
            // Changed in place: a session copied out and written back retained and released each
            // of its tables, on every output.
            let limit = configuration.maxQueuedDeltas
            let kept =
                inSession(peer) { session -> Bool? in
                    guard session.state != .closing else { return nil }
                    session.lastSent = now
                    session.queued += output.queueWeight
                    guard session.queued <= limit else {
                        session.state = .closing
                        return false
                    }
                    return true
                } ?? nil
            switch kept {
            case nil: continue
            case false?: result.append(.closeSession(peer, .notReading))
            case true?: result.append(output)
            }
        }
        return result
    }

    /// A new head for `author` from a delta now in the store.
    mutating func advanceHead(_ delta: SignedDelta) {
        guard delta.seq > heads[delta.author]?.seq ?? 0 else { return }
        heads[delta.author] = AuthorHead(author: delta.author, seq: delta.seq, hash: Blake2b.hash256(delta.envelope))
    }

    /// Moves heads up to the newest of `deltas` for each author: one hash per author moved, not one
    /// per delta (a group stored holds runs of each author).
    mutating func advanceHeads(_ deltas: [SignedDelta]) {
        guard deltas.count > 1 else {
            if let delta = deltas.first { advanceHead(delta) }
            return
        }
        var newest: [AuthorID: Int] = [:]
        for (index, delta) in deltas.enumerated() where delta.seq > newest[delta.author].map({ deltas[$0].seq }) ?? 0 {
            newest[delta.author] = index
        }
        for index in newest.values.sorted() { advanceHead(deltas[index]) }
    }
}
