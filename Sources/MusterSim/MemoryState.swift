import MusterCore
import MusterRules

/// One delta of a memory store's log.
struct MemoryEntry {
    let delta: SignedDelta
    let hash: [UInt8]
    /// Its own signature was checked (a page served ends on one; see ``MemoryStore/deltas(of:after:limit:)``).
    var verified: Bool
}

/// A recorded revocation: the seq after which the kiosk's deltas are refused, the signed revocation, and
/// the hash the delta at the watermark must have while it names one.
struct MemoryRevocation {
    let watermark: UInt64
    let evidence: SignedDelta
    let hash: [UInt8]?
}

/// What a ``MemoryStore`` holds, as the replica's tables hold it: each author's log (index = seq − 1),
/// the roster, the revocations, the fork cuts and the fork evidence. A value, so that a refused
/// submission can leave the store as it was.
///
/// What a revocation cuts is dropped, not set aside as the replica does: the simulator never takes a
/// revocation back, and set-aside deltas are outside the digest.
public struct MemoryState {
    var logs: [AuthorID: [MemoryEntry]] = [:]
    var roster: MemoryRoster
    var revocations: [AuthorID: MemoryRevocation] = [:]
    var forkCuts: [AuthorID: UInt64] = [:]
    /// Fork evidence by (author, seq), in the order it was kept.
    var evidence: [DeltaRef: [SignedDelta]] = [:]

    init(roster: MemoryRoster) {
        self.roster = roster
    }

    func head(of author: AuthorID) -> AuthorHead {
        guard let last = logs[author]?.last else { return .empty(author) }
        return AuthorHead(author: author, seq: last.delta.seq, hash: last.hash)
    }

    func held(_ author: AuthorID, seq: UInt64) -> MemoryEntry? {
        guard seq >= 1, let log = logs[author], seq <= UInt64(log.count) else { return nil }
        return log[Int(seq - 1)]
    }

    /// The author's record, as `AuthorRecord.fetch` reads it from the replica's tables.
    func record(of author: AuthorID, policy: VenuePolicy) -> AuthorRecord {
        let entry = roster.entries[author]
        let revocation = revocations[author]
        var record = AuthorRecord(
            head: head(of: author),
            headHLC: logs[author]?.last?.delta.hlc,
            forkCut: forkCuts[author],
            membership: .unknown,
            isDevice: entry?.isDevice ?? false,
            watermarkHash: revocation?.hash
        )
        if author == policy.organizer {
            record.membership = .organizer
        } else if let revocation {
            record.membership = .revoked(watermark: revocation.watermark, evidence: revocation.evidence)
        } else if let entry {
            record.membership =
                entry.isDevice ? .device(name: entry.name) : .enrolled(name: entry.name, location: entry.location)
        }
        if author != policy.organizer { record.certificateHLC = entry?.certificateHLC }
        return record
    }

    mutating func append(_ entry: MemoryEntry) {
        logs[entry.delta.author, default: []].append(entry)
    }

    /// Drops `author`'s deltas after `seq`; the new last one has its own signature checked, as pages end
    /// on such a delta (`Replica.truncate`). Returns whether anything was dropped.
    @discardableResult
    mutating func truncate(_ author: AuthorID, after seq: UInt64, signature: (SignedDelta) -> Bool) -> Bool {
        guard let log = logs[author], UInt64(log.count) > seq else { return false }
        var kept = Array(log.prefix(Int(seq)))
        if let last = kept.indices.last, signature(kept[last].delta) { kept[last].verified = true }
        logs[author] = kept.isEmpty ? nil : kept
        return true
    }

    /// Whether `author` holds a revocation after `seq` (one a cut there would drop).
    func holdsRevocation(of author: AuthorID, after seq: UInt64) -> Bool {
        logs[author]?.contains { $0.delta.seq > seq && $0.delta.kind == .revoke } ?? false
    }
}
