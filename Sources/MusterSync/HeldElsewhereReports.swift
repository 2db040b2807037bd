import MusterCore
import MusterRules

/// What peers' heads said of this kiosk's own chain, and when each was last written to the replica
/// (``RevocationVerdict``'s proof that another kiosk holds our check-ins, `Replica.recordHeldElsewhere`).
///
/// Every heads message of every peer names our head, and on a busy kiosk it moves with each check-in:
/// writing each report was one durable transaction per peer per local check-in, on the path that reads
/// the peer's frames. So a peer's report is written at most once per ``interval``; a newer one heard
/// meanwhile waits, and ``takePending()`` hands every waiting one over before a verdict needs them and
/// when the service stops. What may be lost in a crash is the newest few seconds of reports, and a
/// missing report only ever makes a revoked kiosk keep its data, never wipe it.
struct HeldElsewhereReports: Sendable {
    private struct Entry {
        /// The highest seq of our chain recorded for the peer.
        var written: UInt64 = 0
        var lastWrite: Duration?
        /// A newer head heard since, not yet written.
        var pending: AuthorHead?
        /// A write of ``pending`` is due at the end of the interval (``flushAt(_:)``).
        var flushScheduled = false
    }

    let interval: Duration
    private var entries: [AuthorID: Entry] = [:]

    init(interval: Duration) {
        self.interval = interval
    }

    /// `peer` showed `head` of our chain at `now`: the head to write now, or nil (nothing new, or it
    /// waits for the interval to pass).
    mutating func heard(_ head: AuthorHead, from peer: AuthorID, now: Duration) -> AuthorHead? {
        var entry = entries[peer] ?? Entry()
        guard head.seq > entry.written else { return nil }
        if let last = entry.lastWrite, now - last < interval {
            if head.seq > entry.pending?.seq ?? 0 { entry.pending = head }
            entries[peer] = entry
            return nil
        }
        // Past the interval the head is written even when it is the one already waiting: the peer
        // repeats it in every heads message, and no newer one may ever come.
        entry.pending = nil
        entries[peer] = entry
        return head
    }

    /// The write of `head` for `peer` succeeded at `now`. One that failed (the peer's delta at that seq
    /// is not ours) is not noted, so the peer's next report is written.
    mutating func written(_ head: AuthorHead, by peer: AuthorID, now: Duration) {
        var entry = entries[peer] ?? Entry()
        entry.written = max(entry.written, head.seq)
        entry.lastWrite = now
        if let pending = entry.pending, pending.seq <= entry.written { entry.pending = nil }
        entries[peer] = entry
    }

    /// When the head waiting for `peer` may be written, the first time this is asked of it; nil when
    /// nothing waits or a write is already due. So the last report of a burst is written when its
    /// interval ends, not when the peer happens to repeat it.
    mutating func flushAt(_ peer: AuthorID) -> Duration? {
        guard let entry = entries[peer], entry.pending != nil, !entry.flushScheduled, let last = entry.lastWrite else {
            return nil
        }
        entries[peer]?.flushScheduled = true
        return last + interval
    }

    /// The head waiting for `peer`, now that its interval ended (``flushAt(_:)``); it waits no more.
    mutating func takeDue(_ peer: AuthorID) -> AuthorHead? {
        entries[peer]?.flushScheduled = false
        guard let pending = entries[peer]?.pending else { return nil }
        entries[peer]?.pending = nil
        return pending
    }

    /// Every report still waiting, by peer, and none waits any more.
    mutating func takePending() -> [(peer: AuthorID, head: AuthorHead)] {
        var taken: [(peer: AuthorID, head: AuthorHead)] = []
        for (peer, entry) in entries {
            guard let pending = entry.pending else { continue }
            taken.append((peer, pending))
            entries[peer]?.pending = nil
        }
        return taken
    }
}
