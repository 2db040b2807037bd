import Foundation
import GRDB
public import MusterCore

extension Replica {
    /// The highest seq of `author`'s chain (this kiosk's own) that another kiosk is known to hold:
    /// the last part of the proof ``RevocationVerdict`` asks for before anything is wiped. It is a
    /// local fact (in `meta`, outside the digest), kept across restarts, because a revoked kiosk is
    /// refused by its peers before they say what they hold.
    public func heldElsewhere() throws(ReplicaError) -> UInt64 {
        try read { db in
            UInt64(try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'held_elsewhere'") ?? "") ?? 0
        }
    }

    /// How far another kiosk is known to hold `author`'s chain: the highest head a peer showed
    /// (``heldElsewhere()``), or the watermark of a revocation of `author` in force here when its hash
    /// names this replica's own delta there (the revocation was signed on a replica that held it).
    public func knownHeldElsewhere(_ author: AuthorID) throws(ReplicaError) -> UInt64 {
        var held = try heldElsewhere()
        if case .revoked(let watermark, let evidence) = try membership(of: author), watermark > held,
            case .revoke(let payload)? = try? evidence.decode().body, payload.watermark == watermark,
            let named = payload.watermarkHash, try deltaHash(of: author, seq: watermark) == named
        {
            held = watermark
        }
        return held
    }

    /// The kiosks' chains (this kiosk's own and every other kiosk's) held here further than another
    /// kiosk is known to hold them. `peersHold` is what peers' heads said this run; for this kiosk's
    /// own chain only what checks out by hash counts (``knownHeldElsewhere(_:)``). After a restart the
    /// peers' word is gone, so a kiosk that holds others' check-ins then keeps its data.
    public func recordsHeldOnlyHere(me: AuthorID, peersHold: [AuthorID: UInt64]) throws(ReplicaError) -> [HeldOnlyHere]
    {
        var kiosks = Set(try roster().filter { $0.role == .kiosk }.map(\.kiosk))
        kiosks.insert(me)
        var only: [HeldOnlyHere] = []
        for author in kiosks.sorted(by: { $0.hex < $1.hex }) {
            let through = try lastRecord(of: author)
            guard through > 0 else { continue }
            let known = author == me ? try knownHeldElsewhere(me) : peersHold[author] ?? 0
            if known < through { only.append(HeldOnlyHere(author: author, through: through, knownElsewhere: known)) }
        }
        return only
    }

    /// Records that a peer holds this kiosk's chain up to `head`, if this replica holds the same delta
    /// there (same hash: the peer holds these very records, not a claim) and it is more than known.
    /// Returns whether the record moved.
    @discardableResult
    public func recordHeldElsewhere(_ head: AuthorHead) throws(ReplicaError) -> Bool {
        guard head.seq > (try heldElsewhere()), (try deltaHash(of: head.author, seq: head.seq)) == head.hash else {
            return false
        }
        do {
            try writer().write { db in
                try db.execute(
                    sql: "INSERT INTO meta(key, value) VALUES ('held_elsewhere', ?) "
                        + "ON CONFLICT(key) DO UPDATE SET value = excluded.value "
                        + "WHERE CAST(excluded.value AS INTEGER) > CAST(meta.value AS INTEGER)",
                    arguments: [String(head.seq)]
                )
            }
        } catch {
            throw Replica.mapError(error)
        }
        return true
    }
}
