public import MusterCore

/// The deltas this replica committed most recently, kept whole for two uses:
///
/// - the copies of a new delta that every other peer relays (on a full mesh of n kiosks each delta
///   arrives n-1 times) are dropped before they cost a write transaction each;
/// - a range a peer asks for (a graft or a repair) that lies wholly among them is sent from here,
///   not read from the store: in the 50-kiosk burst, reading such pages from SQLite took 9 % of a
///   kiosk's CPU (20af448; BENCHMARKS.md, "What each optimisation gained").
///
/// Only exact copies are dropped: a delta is recognized by author, seq and signature, so a
/// different delta at a known seq (a fork) still reaches ``MusterStore/Replica/ingest(_:nowMillis:clockBoundMillis:atomic:durable:)``,
/// which keeps the evidence. Only committed deltas are remembered, so a dropped copy is one the
/// replica holds. Bounded: the oldest are forgotten first, and a forgotten delta is merely
/// ingested again as a duplicate, or read from the store when asked for.
public struct RecentDeltas: Sendable {
    struct Key: Hashable, Sendable {
        let author: AuthorID
        let seq: UInt64
    }

    struct Entry: Sendable {
        let delta: SignedDelta
        /// Whether this replica checked the delta's own signature (see ``page(_:)``).
        let signatureChecked: Bool
    }

    public let capacity: Int
    /// Longest range ``page(_:)`` answers: a longer one is a catch-up, read from the store page by page.
    public static let maxPage = 512
    private var entries: [Key: Entry] = [:]
    private var order: [Key] = []
    private var next = 0

    public init(capacity: Int = 8_192) {
        self.capacity = capacity
        entries.reserveCapacity(capacity)
        order.reserveCapacity(capacity)
    }

    /// Remembers committed deltas.
    ///
    /// - Parameter signatureChecked: which of them had their own signature checked by this replica;
    ///   nil when all did (this kiosk's own, which it signed).
    public mutating func insert(_ deltas: [SignedDelta], signatureChecked: Set<DeltaRef>? = nil) {
        for delta in deltas {
            let key = Key(author: delta.author, seq: delta.seq)
            let checked = signatureChecked?.contains(DeltaRef(author: key.author, seq: key.seq)) ?? true
            guard entries.updateValue(Entry(delta: delta, signatureChecked: checked), forKey: key) == nil else {
                continue
            }
            if order.count < capacity {
                order.append(key)
            } else {
                entries[order[next]] = nil
                order[next] = key
                next = (next + 1) % capacity
            }
        }
    }

    /// Whether this exact delta was committed recently.
    /// Forgets `author`'s deltas after `seq`: the store cut its chain there (a revocation's
    /// watermark, a fork), so they are no longer held, and a copy of one must reach the store again
    /// (if the cut is taken back) instead of being dropped as held.
    public mutating func forget(_ author: AuthorID, after seq: UInt64) {
        entries = entries.filter { $0.key.author != author || $0.key.seq <= seq }
    }

    public func contains(_ delta: SignedDelta) -> Bool {
        entries[Key(author: delta.author, seq: delta.seq)]?.delta.signature == delta.signature
    }

    /// The deltas of `batch` that are not exact copies of recent ones.
    public func unseen(_ batch: [SignedDelta]) -> [SignedDelta] {
        batch.filter { !contains($0) }
    }

    /// Every delta of `range`, oldest first, when all of them are here and the last one's own
    /// signature was checked; nil otherwise (the range is then read from the store).
    ///
    /// The receiver authenticates a page by its newest delta's signature and the hash chain
    /// (``MusterRules/ChainVerifier``), so a page must end on a delta whose signature is known good,
    /// as the store's pages do: an enrolled author that signed a run with a bad signature in the
    /// middle must not get an honest kiosk to serve pages that every peer refuses.
    public func page(_ range: SeqRange) -> [SignedDelta]? {
        guard !range.isEmpty, range.count <= Self.maxPage,
            entries[Key(author: range.author, seq: range.through)]?.signatureChecked == true
        else { return nil }
        var deltas: [SignedDelta] = []
        deltas.reserveCapacity(Int(range.count))
        for seq in (range.after + 1)...range.through {
            guard let entry = entries[Key(author: range.author, seq: seq)] else { return nil }
            deltas.append(entry.delta)
        }
        return deltas
    }
}
