public import MusterCore
public import MusterRules

/// What this kiosk knows about one peer in session, for `muster status` and systemd's STATUS line.
public struct PeerState: Sendable, Equatable {
    public let peer: AuthorID
    /// The name and location in the peer's enrollment certificate.
    public var name: String
    public var location: String
    public let address: String
    public let connectedAtMillis: UInt64
    public var lastHeardMillis: UInt64
    /// How far the peer holds each author's log, from its last hello or heads.
    public var peerHas: [AuthorID: UInt64] = [:]
    /// The state digest the peer last announced (nil until it has).
    public var digest: String?
    /// Deltas the peer sent since this kiosk started, across all its sessions (``PeerTally``), and how
    /// many of them this replica already held: on a full mesh every delta should cross each link once,
    /// so copies stay near zero.
    public var deltasReceived = 0
    public var copiesReceived = 0

    /// How many deltas this replica holds that the peer does not, given our heads.
    public func behind(ours: [AuthorHead]) -> Int {
        ours.reduce(0) { total, head in
            let theirs = peerHas[head.author] ?? 0
            return total + (head.seq > theirs ? Int(clamping: head.seq - theirs) : 0)
        }
    }

    /// How many deltas the peer holds that this replica does not.
    public func ahead(ours: [AuthorHead]) -> Int {
        let mine = Dictionary(ours.map { ($0.author, $0.seq) }, uniquingKeysWith: max)
        return peerHas.reduce(0) { total, entry in
            let have = mine[entry.key] ?? 0
            return total + (entry.value > have ? Int(clamping: entry.value - have) : 0)
        }
    }
}
