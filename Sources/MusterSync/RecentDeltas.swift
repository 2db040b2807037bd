public import MusterCore

/// The deltas this replica committed most recently, so that the copies of a new delta that every
/// other peer relays (on a full mesh of n kiosks each delta arrives n-1 times) are dropped before
/// they cost a write transaction each.
///
/// Only exact copies are dropped: a delta is recognized by author, seq and signature, so a
/// different delta at a known seq (a fork) still reaches ``MusterStore/Replica/ingest(_:nowMillis:clockBoundMillis:atomic:)``,
/// which keeps the evidence. Only committed deltas are remembered, so a dropped copy is one the
/// replica holds. Bounded: the oldest are forgotten first, and a forgotten delta is merely
/// ingested again as a duplicate, as before.
public struct RecentDeltas: Sendable {
    struct Key: Hashable, Sendable {
        let author: AuthorID
        let seq: UInt64
    }

    public let capacity: Int
    private var signatures: [Key: [UInt8]] = [:]
    private var order: [Key] = []
    private var next = 0

    public init(capacity: Int = 8_192) {
        self.capacity = capacity
        signatures.reserveCapacity(capacity)
        order.reserveCapacity(capacity)
    }

    /// Remembers committed deltas.
    public mutating func insert(_ deltas: [SignedDelta]) {
        for delta in deltas {
            let key = Key(author: delta.author, seq: delta.seq)
            guard signatures.updateValue(delta.signature, forKey: key) == nil else { continue }
            if order.count < capacity {
                order.append(key)
            } else {
                signatures[order[next]] = nil
                order[next] = key
                next = (next + 1) % capacity
            }
        }
    }

    /// Whether this exact delta was committed recently.
    public func contains(_ delta: SignedDelta) -> Bool {
        signatures[Key(author: delta.author, seq: delta.seq)] == delta.signature
    }

    /// The deltas of `batch` that are not exact copies of recent ones.
    public func unseen(_ batch: [SignedDelta]) -> [SignedDelta] {
        batch.filter { !contains($0) }
    }
}
