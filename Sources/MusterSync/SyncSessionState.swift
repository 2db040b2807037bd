public import MusterCore
public import MusterStore

/// Replication bookkeeping for one peer, as a pure state machine: it remembers how far the peer's
/// log of every author reaches and says what to send. The I/O layer (``PeerConnection``) carries the
/// actions out.
///
/// Knowledge is keyed by the peer's key (the session), never by its address. After a successful
/// send the peer is assumed to have the deltas; any mistake is repaired by the next head exchange,
/// which replaces assumptions with what the peer says it has.
public struct SyncSessionState: Sendable {
    public enum Action: Sendable, Equatable {
        /// Send the peer `author`'s deltas after `seq` (all of them, in pages).
        case sendRange(author: AuthorID, after: UInt64)
        /// Send these deltas now (new local or relayed ones, consecutive for the peer).
        case send([SignedDelta])
        /// Store what the peer sent.
        case ingest([SignedDelta])
        /// Tell the peer what we hold, so it resends from there.
        case sendHeads
        case sendPong
    }

    /// How far the peer holds each author's log, as far as we know.
    public private(set) var peerHas: [AuthorID: UInt64] = [:]
    public private(set) var peerEpoch: String?
    /// The kiosks the peer says it is in session with (``SyncMessage/sessions(_:)``).
    public private(set) var peerSessions: Set<AuthorID> = []

    public init() {}

    /// The peer said what it holds (hello or periodic heads): send whatever it lacks.
    public mutating func peerHeads(_ heads: [AuthorHead], epoch: String?, ours: [AuthorHead]) -> [Action] {
        if let epoch { peerEpoch = epoch }
        peerHas = Dictionary(heads.map { ($0.author, $0.seq) }, uniquingKeysWith: max)
        return ours.compactMap { head in
            let theirs = peerHas[head.author] ?? 0
            guard head.seq > theirs else { return nil }
            peerHas[head.author] = head.seq
            return .sendRange(author: head.author, after: theirs)
        }
    }

    /// The peer's sessions changed.
    public mutating func peerSessions(_ peers: [AuthorID]) {
        peerSessions = Set(peers)
    }

    /// New deltas here (written locally, `sender` nil, or received from the kiosk `sender`): push
    /// what this peer lacks.
    ///
    /// Not what came from a kiosk the peer is in session with: that kiosk pushes every delta new to
    /// it to each of its sessions (by this same rule), so the peer gets it from there or from a kiosk
    /// before it, back to the one that wrote it. The peer is then assumed to hold them, as after a
    /// send; if a session ended before the announcement did, the next head exchange repairs it.
    public mutating func offer(_ deltas: [SignedDelta], from sender: AuthorID? = nil) -> [Action] {
        if let sender, peerSessions.contains(sender) {
            for delta in deltas where delta.seq > peerHas[delta.author] ?? 0 {
                peerHas[delta.author] = delta.seq
            }
            return []
        }
        var direct: [SignedDelta] = []
        var actions: [Action] = []
        for delta in deltas {
            let theirs = peerHas[delta.author] ?? 0
            if delta.seq == theirs + 1 {
                direct.append(delta)
                peerHas[delta.author] = delta.seq
            } else if delta.seq > theirs + 1 {
                // The peer misses earlier deltas of this author: send the whole range instead.
                actions.append(.sendRange(author: delta.author, after: theirs))
                peerHas[delta.author] = delta.seq
            }
        }
        return (direct.isEmpty ? [] : [.send(direct)]) + actions
    }

    /// The peer sent deltas: store them; it evidently holds them.
    public mutating func received(_ deltas: [SignedDelta]) -> [Action] {
        for delta in deltas where delta.seq > peerHas[delta.author] ?? 0 {
            peerHas[delta.author] = delta.seq
        }
        return [.ingest(deltas)]
    }

    /// What storing the peer's deltas gave: on a gap or broken chain, ask for a resend from our heads.
    public mutating func ingested(rejected: [ReplicaError]) -> [Action] {
        rejected.contains { $0.code == .gap || $0.code == .brokenChain } ? [.sendHeads] : []
    }
}
