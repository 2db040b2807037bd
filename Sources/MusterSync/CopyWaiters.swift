public import MusterCore

/// This kiosk's own writes waiting until enough peers hold them (`ack_copies`): the rule of when a
/// check-in may be acknowledged, apart from the continuations and clocks of the driver that waits.
///
/// A peer holds our chain through a seq once it acknowledged it (``SyncMessage/heads(_:)``) or its
/// heads said so; a chain is committed in order, so holding seq N means holding every seq below it.
/// What a peer acknowledged stays true after its session ends: it is on that peer's disk.
public struct CopyWaiters<Waiter> {
    /// The highest seq of our chain each peer is known to hold.
    private var heldBy: [AuthorID: UInt64] = [:]
    private var waiting: [UInt64: (seq: UInt64, peers: Int, waiter: Waiter)] = [:]
    private var nextID: UInt64 = 0

    public init() {}

    /// How many peers hold our chain through `seq`.
    public func holders(of seq: UInt64) -> Int {
        heldBy.values.count { $0 >= seq }
    }

    /// Waits for `peers` peers to hold `seq`: the id to cancel it with, or nil when they already do
    /// (the waiter is not kept then).
    public mutating func wait(for seq: UInt64, peers: Int, _ waiter: Waiter) -> UInt64? {
        guard holders(of: seq) < peers else { return nil }
        nextID += 1
        waiting[nextID] = (seq, peers, waiter)
        return nextID
    }

    /// `peer` holds our chain through `seq`: the waiters this satisfies, no longer kept, each with
    /// how many peers hold its write.
    public mutating func held(_ seq: UInt64, by peer: AuthorID) -> [(waiter: Waiter, holders: Int)] {
        guard seq > heldBy[peer] ?? 0 else { return [] }
        heldBy[peer] = seq
        var done: [(waiter: Waiter, holders: Int)] = []
        for (id, entry) in waiting where entry.seq <= seq {
            let holders = holders(of: entry.seq)
            guard holders >= entry.peers else { continue }
            done.append((entry.waiter, holders))
            waiting[id] = nil
        }
        return done
    }

    /// The wait `id` ended unanswered (its bound passed): its waiter, if it was still kept.
    public mutating func giveUp(_ id: UInt64) -> Waiter? {
        waiting.removeValue(forKey: id)?.waiter
    }
}
