import Foundation
import GRDB
public import MusterCore
public import MusterRules

extension Replica {
    /// The `meta` key under which what `reporter` holds of this kiosk's own chain is kept.
    static func heldElsewhereKey(_ reporter: AuthorID) -> String { "held_elsewhere:" + reporter.hex }

    /// The highest seq of this kiosk's own chain that another kiosk is known to hold: the last part
    /// of the proof ``RevocationVerdict`` asks for before anything is wiped. It is a local fact (in
    /// `meta`, outside the digest), kept per reporting kiosk across restarts, because a revoked kiosk
    /// is refused by its peers before they say what they hold. Only kiosks not revoked here count: a
    /// revoked one may have wiped itself since it reported.
    public func heldElsewhere() throws(ReplicaError) -> UInt64 {
        let reports: [(AuthorID, UInt64)] = try read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM meta WHERE key LIKE 'held_elsewhere:%'").compactMap {
                row in
                let key: String = row["key"]
                let value: String = row["value"]
                guard let reporter = AuthorID(hex: String(key.dropFirst("held_elsewhere:".count))),
                    let seq = UInt64(value)
                else { return nil }
                return (reporter, seq)
            }
        }
        var held: UInt64 = 0
        for (reporter, seq) in reports where seq > held {
            if try counts(reporter) { held = seq }
        }
        return held
    }

    /// Whether a kiosk's word on what it holds still counts: it is enrolled and not revoked here
    /// (only a revoked kiosk may wipe itself, so only an unrevoked one surely still holds it).
    func counts(_ reporter: AuthorID) throws(ReplicaError) -> Bool {
        if case .enrolled = try membership(of: reporter) { return true }
        return false
    }

    /// How far another kiosk is known to hold `author`'s chain: the highest head an unrevoked peer
    /// showed (``heldElsewhere()``), or the watermark of a revocation of `author` in force here when
    /// its hash names this replica's own delta there (the revocation was signed on a replica that
    /// held it).
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
    /// kiosk is known to hold them. `peersHold` is what each peer's heads said this run (by peer);
    /// a peer revoked here does not count, since it may have wiped itself since. For this kiosk's own
    /// chain only what checks out by hash counts (``knownHeldElsewhere(_:)``). After a restart the
    /// peers' word is gone, so a kiosk that holds others' check-ins then keeps its data.
    public func recordsHeldOnlyHere(
        me: AuthorID,
        peersHold: [AuthorID: [AuthorID: UInt64]]
    ) throws(ReplicaError) -> [HeldOnlyHere] {
        var kiosks = Set(try roster().filter { $0.role == .kiosk }.map(\.kiosk))
        kiosks.insert(me)
        var reporters: [[AuthorID: UInt64]] = []
        for (reporter, held) in peersHold where try counts(reporter) { reporters.append(held) }
        var only: [HeldOnlyHere] = []
        for author in kiosks.sorted(by: { $0.hex < $1.hex }) {
            let through = try lastRecord(of: author)
            guard through > 0 else { continue }
            let known =
                author == me ? try knownHeldElsewhere(me) : reporters.compactMap { $0[author] }.max() ?? 0
            if known < through { only.append(HeldOnlyHere(author: author, through: through, knownElsewhere: known)) }
        }
        return only
    }

    /// Records that `reporter` holds this kiosk's chain up to `head`, if this replica holds the same
    /// delta there (same hash: the peer holds these very records, not a claim) and it is more than
    /// that peer was known to hold. Returns whether the record moved.
    @discardableResult
    public func recordHeldElsewhere(_ head: AuthorHead, by reporter: AuthorID) throws(ReplicaError) -> Bool {
        guard (try deltaHash(of: head.author, seq: head.seq)) == head.hash else { return false }
        let key = Self.heldElsewhereKey(reporter)
        do {
            return try writer().write { db in
                try db.execute(
                    sql: "INSERT INTO meta(key, value) VALUES (?, ?) "
                        + "ON CONFLICT(key) DO UPDATE SET value = excluded.value "
                        + "WHERE CAST(excluded.value AS INTEGER) > CAST(meta.value AS INTEGER)",
                    arguments: [key, String(head.seq)]
                )
                return db.changesCount > 0
            }
        } catch {
            throw Replica.mapError(error)
        }
    }
}
