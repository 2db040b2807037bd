public import MusterCore
import MusterStore
import MusterSync

/// The replication logic of today's `SyncService`, per session over the real ``SyncSessionState``:
/// a full mesh (each pair dialed by the kiosk with the smaller key, redialed 1 s after it ends), a
/// hello with heads on every session, new deltas pushed to every session by the relay rule, the
/// sessions announced 20 ms after they change, and heads exchanged every 5 s for repair.
///
/// The simulator's fallback while the sans-I/O core is not merged, and the baseline to compare it
/// with. Heartbeats are left to the simulated transport, which ends a session whose other end has
/// crashed or been cut off after ``SyncLimits/silenceTimeout``, as the heartbeats would.
public struct MeshReplication: Replication {
    private let me: AuthorID
    private let peers: [AuthorID]
    private var sessions: [AuthorID: SyncSessionState] = [:]
    /// Open sessions in the order they opened: every loop over sessions goes in this order, never in
    /// a dictionary's, so a seed replays across processes.
    private var order: [AuthorID] = []
    private var epoch = ""
    private var announcing = false

    static let antiEntropyTimer: UInt64 = 1
    static let announceTimer: UInt64 = 2
    static let redialTimerBase: UInt64 = 1_000
    static let redialDelay: Duration = .seconds(1)

    public init(me: AuthorID, peers: [AuthorID]) {
        self.me = me
        self.peers = peers.filter { $0 != me }
    }

    public mutating func handle(_ input: ReplicationInput, now: Duration, store: any KioskStore) -> [ReplicationOutput] {
        var out: [ReplicationOutput] = []
        switch input {
        case .started(_, let epoch):
            self.epoch = epoch
            for peer in peers where me < peer { out.append(.open(peer)) }
            out.append(.setTimer(id: Self.antiEntropyTimer, at: now + SyncLimits.antiEntropyInterval))
        case .sessionOpened(let peer, _):
            guard sessions[peer] == nil else { break }
            sessions[peer] = SyncSessionState()
            order.append(peer)
            out.append(.send(.hello(epoch: epoch, heads: heads(store)), to: peer))
            announce(now: now, into: &out)
        case .sessionClosed(let peer), .openFailed(let peer):
            if sessions.removeValue(forKey: peer) != nil {
                order.removeAll { $0 == peer }
                announce(now: now, into: &out)
            }
            if me < peer, let index = peers.firstIndex(of: peer) {
                out.append(.setTimer(id: Self.redialTimerBase + UInt64(index), at: now + Self.redialDelay))
            }
        case .frame(let message, let peer):
            guard var state = sessions[peer] else { break }
            var actions: [SyncSessionState.Action] = []
            switch message {
            case .hello(let epoch, let theirs): actions = state.peerHeads(theirs, epoch: epoch, ours: heads(store))
            case .heads(let theirs): actions = state.peerHeads(theirs, epoch: nil, ours: heads(store))
            case .deltas(let deltas): actions = state.received(deltas)
            case .sessions(let list): state.peerSessions(list)
            case .ping: actions = [.sendPong]
            default: break
            }
            sessions[peer] = state
            perform(actions, for: peer, store: store, into: &out)
        case .localCommit(let deltas):
            offer(deltas, from: nil, store: store, into: &out)
        case .stored(_, let report, let sender):
            if var state = sessions[sender] {
                let actions = state.ingested(rejected: report.rejected)
                sessions[sender] = state
                perform(actions, for: sender, store: store, into: &out)
            }
            if !report.applied.isEmpty { offer(report.applied, from: sender, store: store, into: &out) }
        case .timerFired(let id):
            switch id {
            case Self.antiEntropyTimer:
                let ours = heads(store)
                for peer in order { out.append(.send(.heads(ours), to: peer)) }
                out.append(.setTimer(id: Self.antiEntropyTimer, at: now + SyncLimits.antiEntropyInterval))
            case Self.announceTimer:
                announcing = false
                for peer in order { out.append(.send(.sessions(order), to: peer)) }
            default:
                let index = Int(id - Self.redialTimerBase)
                if index >= 0, index < peers.count, sessions[peers[index]] == nil { out.append(.open(peers[index])) }
            }
        }
        return out
    }

    private func heads(_ store: any KioskStore) -> [AuthorHead] { (try? store.heads()) ?? [] }

    private mutating func announce(now: Duration, into out: inout [ReplicationOutput]) {
        guard !announcing else { return }
        announcing = true
        out.append(.setTimer(id: Self.announceTimer, at: now + SyncLimits.sessionsAnnouncementDelay))
    }

    private mutating func offer(
        _ deltas: [SignedDelta], from sender: AuthorID?, store: any KioskStore, into out: inout [ReplicationOutput]
    ) {
        for peer in order where peer != sender {
            guard var state = sessions[peer] else { continue }
            let actions = state.offer(deltas, from: sender)
            sessions[peer] = state
            perform(actions, for: peer, store: store, into: &out)
        }
    }

    private func perform(
        _ actions: [SyncSessionState.Action], for peer: AuthorID, store: any KioskStore,
        into out: inout [ReplicationOutput]
    ) {
        for action in actions {
            switch action {
            case .sendRange(let author, let after):
                var from = after
                while let page = try? store.deltas(of: author, after: from, limit: SyncLimits.batchSize),
                    let last = page.last
                {
                    out.append(.send(.deltas(page), to: peer))
                    from = last.seq
                }
            case .send(let deltas): out.append(.send(.deltas(deltas), to: peer))
            case .ingest(let deltas): out.append(.store(id: 0, deltas, from: peer))
            case .sendHeads: out.append(.send(.heads(heads(store)), to: peer))
            case .sendPong: out.append(.send(.pong, to: peer))
            }
        }
    }
}
