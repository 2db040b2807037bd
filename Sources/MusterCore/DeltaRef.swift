/// Names one delta: its author and its position in the author's log.
public struct DeltaRef: Hashable, Sendable, CustomStringConvertible {
    public let author: AuthorID
    public let seq: UInt64

    public init(author: AuthorID, seq: UInt64) {
        self.author = author
        self.seq = seq
    }

    public var description: String { "\(author.short)#\(seq)" }
}
