public import MusterCore

/// Badges relayed between kiosks (``RelayedPrint``): on the asking side, the requests waiting for a
/// peer's reply; on the printing side, the peers being served. The rules apart from the driver's
/// continuations and clocks.
///
/// A reply counts only from the peer that was asked, so no other kiosk can answer for it. A peer is
/// served one badge at a time: a second request while one prints is answered busy, so a hostile key
/// cannot queue the neighbour's printer.
public struct PrintRelays<Waiter> {
    private var waiting: [UInt64: (peer: AuthorID, waiter: Waiter)] = [:]
    private var nextID: UInt64 = 0
    private var serving: Set<AuthorID> = []

    public init() {}

    /// Asks `peer`: the id the request carries.
    public mutating func ask(_ peer: AuthorID, _ waiter: Waiter) -> UInt64 {
        nextID += 1
        waiting[nextID] = (peer, waiter)
        return nextID
    }

    /// `peer` replied to request `id`: its waiter, no longer kept; nil for a reply nobody waits for
    /// or one from another kiosk than the one asked.
    public mutating func replied(_ id: UInt64, by peer: AuthorID) -> Waiter? {
        guard waiting[id]?.peer == peer else { return nil }
        return waiting.removeValue(forKey: id)?.waiter
    }

    /// Request `id` went unanswered within its bound: its waiter, if still kept.
    public mutating func giveUp(_ id: UInt64) -> Waiter? {
        waiting.removeValue(forKey: id)?.waiter
    }

    /// `peer`'s session ended: every request to it will go unanswered, so their waiters, no longer kept.
    public mutating func ended(_ peer: AuthorID) -> [Waiter] {
        let gone = waiting.filter { $0.value.peer == peer }
        for id in gone.keys { waiting[id] = nil }
        return gone.values.map(\.waiter)
    }

    /// `peer` asks this kiosk to print: true if it may (nothing of its is printing now).
    public mutating func serve(_ peer: AuthorID) -> Bool {
        serving.insert(peer).inserted
    }

    /// The badge printed for `peer` is done (printed or not).
    public mutating func served(_ peer: AuthorID) {
        serving.remove(peer)
    }

    /// Requests waiting for a reply.
    public var pending: Int { waiting.count }
}
