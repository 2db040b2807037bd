/// When a kiosk computes its replica's digest and gives its heap back, decided once per
/// anti-entropy interval from the replica's state version (bumped by every change).
///
/// - The heap goes back once the replica was quiet for a whole interval after a change: the busy
///   moment's memory is not needed any more.
/// - The digest is computed once the replica was quiet for an interval, or every
///   ``busyEvery`` intervals while it keeps changing: during a burst the digest is stale before it
///   is sent, and hashing every table every 5 s on every kiosk took 7 % of a 50-kiosk lab's CPU.
public struct DigestCadence: Sendable, Equatable {
    /// While the replica keeps changing, the digest is still computed every this many intervals.
    public static let busyEvery = 6

    /// The state version one interval ago, and the one last followed by a heap trim.
    private var previous: UInt64 = 0
    private var trimmed: UInt64 = 0
    /// Intervals since the digest was last computed.
    private var sinceDigest = 0

    public init() {}

    /// What to do at the end of an interval, given the state version now.
    public mutating func tick(version: UInt64) -> (trimHeap: Bool, computeDigest: Bool) {
        let quiet = version == previous
        let trim = quiet && version != trimmed
        if trim { trimmed = version }
        previous = version
        sinceDigest += 1
        let digest = quiet || sinceDigest >= Self.busyEvery
        if digest { sinceDigest = 0 }
        return (trim, digest)
    }
}
