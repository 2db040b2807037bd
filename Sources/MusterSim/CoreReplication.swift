import MusterCore
import MusterStore
import MusterSync

/// One kiosk's ``SyncCore`` (the sans-I/O sync core), driven as the daemon's driver drives it:
/// every kiosk of the venue fed as discovered at start, `.sendRange` read from the store in pages of
/// ``SyncLimits/batchSize``, store requests answered with the replica's report, and sends reported
/// back as `.written` as soon as they leave (the simulated socket never backs up). Fork evidence in a
/// store's report goes to the core after the store's heads (``SyncInput/forkEvidence(_:)``), as
/// `SyncService` does, so that every replica makes the same cut.
public struct CoreReplication: Replication {
    private var core: SyncCore?
    private let me: AuthorID
    private let peers: [AuthorID]
    private let organizer: AuthorID
    private let seed: UInt64
    private let configure: @Sendable (inout SyncCore.Configuration) -> Void

    public init(
        me: AuthorID,
        peers: [AuthorID],
        organizer: AuthorID,
        seed: UInt64,
        configure: @escaping @Sendable (inout SyncCore.Configuration) -> Void = { _ in }
    ) {
        self.me = me
        self.peers = peers.filter { $0 != me }
        self.organizer = organizer
        self.seed = seed
        self.configure = configure
    }

    /// Timers travel through the simulator as numbers: their index among ``SyncTimer/allCases``.
    static func number(_ timer: SyncTimer) -> UInt64 { UInt64(SyncTimer.allCases.firstIndex(of: timer) ?? 0) }

    static func timer(_ number: UInt64) -> SyncTimer? {
        number < SyncTimer.allCases.count ? SyncTimer.allCases[Int(number)] : nil
    }

    public mutating func handle(_ input: ReplicationInput, now: Duration, store: any KioskStore) -> [ReplicationOutput]
    {
        var inputs: [SyncInput] = []
        var evidence: [SignedDelta] = []
        switch input {
        case .started(let heads, let epoch):
            var configuration = SyncCore.Configuration(me: me, epoch: epoch, organizer: organizer)
            configure(&configuration)
            core = SyncCore(configuration: configuration, heads: heads, seed: seed)
            inputs = peers.map { .peerDiscovered($0) }
        case .sessionOpened(let peer, let dialed):
            inputs = [.sessionOpened(peer: peer, initiator: dialed ? me : peer)]
            // What this store knows of forks goes to the new session (as `SyncService.opened`).
            let known = (try? store.forkEvidence()) ?? []
            if !known.isEmpty { inputs.append(.forkEvidence(known)) }
        case .sessionClosed(let peer):
            inputs = [.sessionClosed(peer: peer)]
        case .openFailed(let peer): inputs = [.openFailed(peer: peer)]
        case .frame(let message, let peer): inputs = [.frameReceived(from: peer, message)]
        case .localCommit(let deltas): inputs = [.localCommit(deltas)]
        case .stored(let id, let report, _):
            inputs = [
                .stored(
                    StoreResult(
                        id: id,
                        applied: report.applied,
                        rejected: report.rejected,
                        signatureChecked: report.signatureChecked
                    )
                )
            ]
            for delta in report.forkEvidence where !evidence.contains(delta) { evidence.append(delta) }
        case .timerFired(let number):
            guard let timer = Self.timer(number) else { return [] }
            inputs = [.timerFired(timer)]
        }
        guard var core else { return [] }
        // Let go of the stored copy while the core runs, or every table it changes is copied first.
        self.core = nil
        var out: [ReplicationOutput] = []
        run(inputs, now: now, core: &core, store: store, into: &out)
        if !evidence.isEmpty {
            // The store may have cut a chain: the core hears its heads first, as from `refreshHeads`.
            if let heads = try? store.heads() {
                run([.storeHeads(heads)], now: now, core: &core, store: store, into: &out)
            }
            run([.forkEvidence(evidence)], now: now, core: &core, store: store, into: &out)
        }
        self.core = core
        return out
    }

    /// Feeds `inputs` to the core, then the `.written` each round of sends gives, until none is left.
    private func run(
        _ first: [SyncInput],
        now: Duration,
        core: inout SyncCore,
        store: any KioskStore,
        into out: inout [ReplicationOutput]
    ) {
        var inputs = first
        while !inputs.isEmpty {
            var written: [(peer: AuthorID, weight: Int)] = []
            for input in inputs {
                for output in core.handle(input, now: now) {
                    if let peer = output.recipient, output.queueWeight > 0 {
                        if let index = written.firstIndex(where: { $0.peer == peer }) {
                            written[index].weight += output.queueWeight
                        } else {
                            written.append((peer, output.queueWeight))
                        }
                    }
                    translate(output, store: store, into: &out)
                }
            }
            inputs = written.map { .written(peer: $0.peer, weight: $0.weight) }
        }
    }

    private func translate(_ output: SyncOutput, store: any KioskStore, into out: inout [ReplicationOutput]) {
        switch output {
        case .send(let peer, let message): out.append(.send(message, to: peer))
        case .sendRange(let peer, let range):
            var after = range.after
            while after < range.through {
                let limit = min(SyncLimits.batchSize, Int(clamping: range.through - after))
                guard let page = try? store.deltas(of: range.author, after: after, limit: limit), let last = page.last
                else { break }
                out.append(.send(.deltas(page), to: peer))
                after = last.seq
            }
        case .store(let request): out.append(.store(id: request.id, request.deltas, from: request.peer))
        case .setTimer(let timer, let at): out.append(.setTimer(id: Self.number(timer), at: at))
        case .openSession(let peer): out.append(.open(peer))
        case .closeSession(let peer, _): out.append(.close(peer))
        }
    }
}
