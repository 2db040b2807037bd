public import MusterCore

/// Counts and identities for `muster status`.
public struct ReplicaStatus: Sendable, Equatable {
    public struct AuthorCount: Sendable, Equatable {
        public let author: AuthorID
        public let deltas: Int
        public let headSeq: UInt64
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
}
