public import MusterCore

/// What the core knows about one session, as a value-type state machine: the peer's claimed heads,
/// whether new deltas go to it by eager push or lazy announcement (Plumtree), its write queue, and
/// when it was last heard from.
///
/// Knowledge is keyed by the peer's key, never its address. The kiosk-wide machine (``SyncCore``)
/// owns one per session and decides everything that spans sessions (relay, repair, membership).
public struct SessionMachine: Sendable {
    public enum State: Sendable, Equatable {
        /// Our hello is out; the peer's has not arrived.
        case awaitingHello
        /// Both hellos exchanged: the session replicates.
        case established
        /// The core asked the driver to close it; nothing more is sent.
        case closing
    }

    public let peer: AuthorID
    /// Who dialed.
    public let initiator: AuthorID
    public internal(set) var state: State = .awaitingHello
    /// Plumtree: new deltas go to this peer by eager push (true) or by lazy announcement (false).
    public internal(set) var eager = true
    /// How far the peer holds each author's log, as far as we know (its last heads, raised by every
    /// delta it sent us or we sent it).
    public private(set) var peerHas: [AuthorID: UInt64] = [:]
    /// The core's repair scan found nothing in ``peerHas`` beyond our heads, and nothing rose since.
    /// Our heads only rise between scans (the core clears this where they fall), so the scan can
    /// pass this session by until the peer's claims rise (``SyncCore/scheduleRepairs(now:preferring:into:)``).
    var nothingAhead = false
    /// Signatures of the fork evidence sent to this peer (``SyncInput/forkEvidence(_:)``), and when.
    var evidenceSent: [[UInt8]: Duration] = [:]
    public internal(set) var peerEpoch: String?
    /// The kiosks the peer says it is in session with (``SyncMessage/sessions(_:)``).
    public internal(set) var peerSessions: Set<AuthorID> = []
    /// The digest the peer last announced.
    public internal(set) var peerDigest: String?
    /// Deltas queued for this peer and not yet reported written (a range counts by its size).
    public internal(set) var queued = 0

    var lastHeard: Duration
    var lastSent: Duration
    /// Store requests of this peer's deltas not yet reported: its silence while we store is our
    /// own slowness, not the peer's.
    var storing = 0
    /// The highest seq of each author queued to this peer in answer to a request, and when: a
    /// request for the same deltas again soon after (a peer that re-claims seq 0 while its store
    /// catches up) is trimmed to what was not sent yet.
    var served: [AuthorID: (through: UInt64, at: Duration)] = [:]
    /// The state version and digest this peer was last told (anti-entropy skips an agreeing peer).
    var announcedVersion: UInt64?
    var announcedDigest: String?
    /// Announcements waiting for the next lazy push.
    var lazy: [AuthorID: SeqRange] = [:]
    /// Deltas held back for the next eager push, in the order they were stored (beyond the full mesh).
    var pending: [SignedDelta] = []

    init(peer: AuthorID, initiator: AuthorID, now: Duration) {
        self.peer = peer
        self.initiator = initiator
        lastHeard = now
        lastSent = now
    }

    /// The peer holds `author` up to at least `seq`; returns whether that is more than it was known
    /// to hold.
    @discardableResult
    mutating func holds(_ author: AuthorID, through seq: UInt64) -> Bool {
        guard seq > peerHas[author] ?? 0 else { return false }
        peerHas[author] = seq
        nothingAhead = false
        return true
    }

    /// The peer holds exactly `has` (its heads, or the replaced session's table).
    mutating func replaceHas(_ has: [AuthorID: UInt64]) {
        peerHas = has
        nothingAhead = false
    }

    /// Queue a lazy announcement, merging with one already queued for the author.
    mutating func announce(_ range: SeqRange) {
        if let queued = lazy[range.author] {
            lazy[range.author] = SeqRange(
                author: range.author,
                after: min(queued.after, range.after),
                through: max(queued.through, range.through)
            )
        } else {
            lazy[range.author] = range
        }
    }

    /// The part of a requested range not already queued to this peer within `window` of `now`.
    mutating func trim(_ range: SeqRange, now: Duration, window: Duration) -> SeqRange {
        var after = range.after
        if let served = served[range.author], now - served.at < window, served.through > after {
            after = min(served.through, range.through)
        }
        let trimmed = SeqRange(author: range.author, after: after, through: range.through)
        if !trimmed.isEmpty { served[range.author] = (trimmed.through, now) }
        return trimmed
    }
}
