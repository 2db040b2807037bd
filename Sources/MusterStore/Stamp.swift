import Foundation
import GRDB
import MusterCore
public import MusterRules

/// The total order for last-writer-wins: (hlc, author, seq), compared the same way in Swift and SQL
/// (SQLite compares BLOBs with memcmp, which is the bytewise order of ``AuthorID``).
struct Stamp: Comparable {
    let hlc: Int64
    let author: Data
    let seq: Int64

    /// The stamp of `delta`, decoded from `envelope`: the author's bytes are taken as the envelope
    /// carries them, the bytes `delta.author.bytes` would assemble again (about 840 instructions, on
    /// every delta stored).
    init(_ delta: Delta, envelope: [UInt8]) {
        hlc = Int64(delta.hlc.packed)
        author = Data(envelope[SignedDelta.authorRange])
        seq = Int64(clamping: delta.seq)
    }

    init(row: Row, prefix: String) {
        hlc = row[prefix + "hlc"]
        author = row[prefix + "author"]
        seq = row[prefix + "seq"]
    }

    static func < (lhs: Stamp, rhs: Stamp) -> Bool {
        if lhs.hlc != rhs.hlc { return lhs.hlc < rhs.hlc }
        if lhs.author != rhs.author { return lhs.author.lexicographicallyPrecedes(rhs.author) }
        return lhs.seq < rhs.seq
    }
}
