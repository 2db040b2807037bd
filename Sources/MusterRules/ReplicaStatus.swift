public import MusterCore

/// Counts and identities for `muster status`.
public struct ReplicaStatus: Sendable, Equatable {
    public struct AuthorCount: Sendable, Equatable {
        public let author: AuthorID
        public let deltas: Int
        public let headSeq: UInt64

        /// Memberwise, for the stores that build it from their rows.
        package init(author: AuthorID, deltas: Int, headSeq: UInt64) {
            self.author = author
            self.deltas = deltas
            self.headSeq = headSeq
        }
    }
    public let lock: LockState?
    public let attendees: Int
    public let checkedIn: Int
    public let walkIns: Int
    public let inside: Int
    public let authors: [AuthorCount]
    public let forks: Int
    public let clockWarnings: Int
    public let digest: String
    /// What partitions let through twice in the locked campaign (``Conflicts``).
    public var conflicts = 0

    /// Memberwise, for the stores that build it from their rows.
    package init(
        lock: LockState?,
        attendees: Int,
        checkedIn: Int,
        walkIns: Int,
        inside: Int,
        authors: [AuthorCount],
        forks: Int,
        clockWarnings: Int,
        digest: String
    ) {
        self.lock = lock
        self.attendees = attendees
        self.checkedIn = checkedIn
        self.walkIns = walkIns
        self.inside = inside
        self.authors = authors
        self.forks = forks
        self.clockWarnings = clockWarnings
        self.digest = digest
    }
}
