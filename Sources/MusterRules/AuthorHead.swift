public import MusterCore

/// The newest delta of one author that a replica holds: its seq and the hash the next delta must name.
public struct AuthorHead: Sendable, Equatable {
    public let author: AuthorID
    public let seq: UInt64
    public let hash: [UInt8]

    public init(author: AuthorID, seq: UInt64, hash: [UInt8]) {
        self.author = author
        self.seq = seq
        self.hash = hash
    }

    /// The head of an author the replica has never seen.
    public static func empty(_ author: AuthorID) -> AuthorHead {
        AuthorHead(author: author, seq: 0, hash: Delta.genesisPrev)
    }
}

/// The author's key, raw, then the seq and the hash: how `hello` and `heads` announce what a kiosk holds.
extension AuthorHead: ByteCodable {
    public func encode(into writer: inout ByteWriter) {
        writer.write(author, seq)
        writer.writeRaw(hash)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let author: AuthorID = try reader.read()
        let seq: UInt64 = try reader.read()
        self.init(author: author, seq: seq, hash: try reader.readRaw(count: Delta.hashByteCount))
    }
}

extension AuthorHead {
    /// Whether `heads` name each author at most once, checked in one pass without a table: true when
    /// all but the first are in ascending author order and the first is not among them, as a kiosk
    /// sends its heads (the organizer's first, the rest by key). A list that is not (a hostile
    /// peer's) may still name each once; callers then take the slower way that does not ask.
    public static func namesEachAuthorOnce(_ heads: [AuthorHead]) -> Bool {
        guard heads.count > 2 else { return heads.count < 2 || heads[0].author != heads[1].author }
        for index in 2..<heads.count where !(heads[index - 1].author < heads[index].author) { return false }
        // The first against the ordered rest, by binary search.
        let first = heads[0].author
        var low = 1
        var high = heads.count
        while low < high {
            let middle = (low + high) / 2
            if heads[middle].author < first { low = middle + 1 } else { high = middle }
        }
        return low == heads.count || heads[low].author != first
    }

    /// Of `fresh` (the author's deltas above this head, ascending, one per seq), what can be stored
    /// now: the run must start at the next seq, and it ends before the first missing one. Every
    /// store (the replica and the simulator's stand-in) cuts a run by this one rule.
    /// - Returns: the storable prefix, and the refusal of what was cut, if anything was.
    public func contiguousPrefix(of fresh: [SignedDelta]) -> (run: ArraySlice<SignedDelta>, gap: DeltaRejection?) {
        guard let first = fresh.first else { return ([], nil) }
        guard first.seq == seq + 1 else {
            let gap = DeltaRejection(.gap, "expected seq \(seq + 1) of \(author), got \(first.seq)", ref: first.ref)
            return ([], gap)
        }
        guard let breakIndex = fresh.indices.dropFirst().first(where: { fresh[$0].seq != fresh[$0 - 1].seq + 1 })
        else { return (fresh[...], nil) }
        let missing = fresh[breakIndex - 1].seq + 1
        let gap = DeltaRejection(.gap, "seq \(missing) of \(author) is missing", ref: fresh[breakIndex].ref)
        return (fresh[..<breakIndex], gap)
    }
}
