public import MusterCore

/// Consecutive deltas of one author, `(after, through]`: what a repair asks for (``SyncMessage/want(_:)``,
/// ``SyncMessage/graft(_:)``), what a lazy announcement names (``SyncMessage/ihave(_:)``), and what the
/// core tells its driver to read from the store and send (``SyncOutput/sendRange(to:_:)``).
public struct SeqRange: Sendable, Hashable, CustomStringConvertible {
    public let author: AuthorID
    /// The last seq the asking side holds; the range starts after it.
    public let after: UInt64
    /// The last seq of the range (inclusive).
    public let through: UInt64

    public init(author: AuthorID, after: UInt64, through: UInt64) {
        self.author = author
        self.after = after
        self.through = through
    }

    /// How many deltas the range holds: what it weighs against a session's queue limit.
    public var count: Int { through > after ? Int(clamping: through - after) : 0 }
    public var isEmpty: Bool { through <= after }

    public var description: String { "\(author.short)(\(after),\(through)]" }
}
