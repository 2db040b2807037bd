public import MusterCore
import MusterRules

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
    /// The only authors whose claims in ``peerHas`` may be beyond our heads: the ones the core's
    /// repair scan last found beyond them, and the ones whose claims rose since; nil when not known
    /// (a new or replaced table, too many risen), and the scan reads every claim. Our heads only
    /// rise between scans (the core forgets this where they fall), so a claim not listed stays at
    /// or below them (``SyncCore/scheduleRepairs(now:preferring:into:)``). Without it, every delta a
    /// peer sent made the next scan read all the peer's claims again: half a million lookups for 500
    /// check-ins at 50 kiosks.
    var mayBeAhead: [AuthorID]?
    /// More risen authors than this and the scan reads every claim again.
    static let mayBeAheadLimit = 64
    /// Signatures of the fork evidence sent to this peer (``SyncInput/forkEvidence(_:)``), and when.
    var evidenceSent: [[UInt8]: Duration] = [:]
    public internal(set) var peerEpoch: String?
    /// The kiosks the peer says it is in session with (``SyncMessage/sessions(_:)``).
    public internal(set) var peerSessions: Set<AuthorID> = []
    /// The digest the peer last announced.
    public internal(set) var peerDigest: String?
    /// Deltas queued for this peer and not yet reported written (a range counts by its size).
    public internal(set) var queued = 0

    /// When the session opened (its hello is awaited from then on).
    let opened: Duration
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
        opened = now
        lastHeard = now
        lastSent = now
    }

    /// The peer holds `author` up to at least `seq`; returns whether that is more than it was known
    /// to hold.
    @discardableResult
    mutating func holds(_ author: AuthorID, through seq: UInt64) -> Bool {
        guard seq > peerHas[author] ?? 0 else { return false }
        peerHas[author] = seq
        rose(author)
        return true
    }

    /// `author`'s claim rose: the scan must look at it.
    private mutating func rose(_ author: AuthorID) {
        // Counted and searched in place: a copy of the list held across the append made it copy.
        guard let count = mayBeAhead?.count, mayBeAhead?.contains(author) == false else { return }
        if count < Self.mayBeAheadLimit { mayBeAhead?.append(author) } else { mayBeAhead = nil }
    }

    /// The peer holds exactly `has` (the replaced session's table).
    mutating func replaceHas(_ has: [AuthorID: UInt64]) {
        peerHas = has
        mayBeAhead = nil
    }

    /// The peer holds exactly what `heads` say (its hello or a heads message), the highest seq where
    /// an author is named twice.
    ///
    /// Changed in place when each author is named once, as every kiosk sends its heads: at 1,000
    /// kiosks heads name 1,000 authors and come from every peer at every anti-entropy round, and a
    /// table built afresh for each, with a repair scan over all of it after, took a 2,000-check-in
    /// simulation 66 s where it now takes 51 (with ``mayBeAhead``). Only the claims that rose join
    /// ``mayBeAhead``: one that fell or stayed is no further beyond our heads than it was.
    mutating func replaceHas(with heads: [AuthorHead]) {
        guard AuthorHead.namesEachAuthorOnce(heads) else {
            replaceHas(Dictionary(heads.map { ($0.author, $0.seq) }, uniquingKeysWith: max))
            return
        }
        for head in heads where head.seq > peerHas.updateValue(head.seq, forKey: head.author) ?? 0 {
            rose(head.author)
        }
        if peerHas.count != heads.count {
            // Authors the peer no longer names (its store cut them) are no longer claimed.
            peerHas = Dictionary(uniqueKeysWithValues: heads.map { ($0.author, $0.seq) })
        }
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
