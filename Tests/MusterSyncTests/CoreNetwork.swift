import MusterCore
import MusterRules

@testable import MusterSync

/// A few cores on an instant, lossless network in virtual time, for the core's own tests (the full
/// simulator with faults and the real replica is `muster-sim`). Each kiosk's log is a dictionary
/// that takes an author's deltas only in seq order, as the replica does.
struct CoreNetwork {
    var cores: [AuthorID: SyncCore] = [:]
    var logs: [AuthorID: [AuthorID: [SignedDelta]]] = [:]
    var timers: [AuthorID: [SyncTimer: Duration]] = [:]
    var links: Set<[AuthorID]> = []
    var now: Duration = .seconds(1)
    var queue: [(AuthorID, SyncInput)] = []
    /// Deltas received per kiosk (every copy).
    var received: [AuthorID: Int] = [:]
    /// The most live sessions any kiosk held (a session the core is closing, to make room or
    /// because its peer went silent, no longer counts).
    var maxSessions = 0

    init(kiosks: [AuthorID], configure: (inout SyncCore.Configuration) -> Void = { _ in }) {
        for (index, kiosk) in kiosks.enumerated() {
            var configuration = SyncCore.Configuration(me: kiosk, epoch: "e\(index)")
            configure(&configuration)
            cores[kiosk] = SyncCore(configuration: configuration, heads: [], seed: UInt64(index + 1))
            logs[kiosk] = [:]
        }
    }

    mutating func input(_ kiosk: AuthorID, _ input: SyncInput) { queue.append((kiosk, input)) }

    /// Writes `deltas` at `kiosk` as a local commit.
    mutating func commit(_ deltas: [SignedDelta], at kiosk: AuthorID) {
        for delta in deltas { logs[kiosk]![delta.author, default: []].append(delta) }
        input(kiosk, .localCommit(deltas))
    }

    /// Delivers everything queued, then fires due timers, until `until`.
    mutating func run(until end: Duration, step: Duration = .milliseconds(1)) {
        while now <= end {
            while !queue.isEmpty {
                let (kiosk, input) = queue.removeFirst()
                let outputs = cores[kiosk]!.handle(input, now: now)
                for output in outputs { execute(output, at: kiosk) }
            }
            for (kiosk, armed) in timers {
                for (timer, deadline) in armed where deadline <= now {
                    timers[kiosk]![timer] = nil
                    queue.append((kiosk, .timerFired(timer)))
                }
            }
            if queue.isEmpty { now += step }
        }
    }

    mutating func execute(_ output: SyncOutput, at kiosk: AuthorID) {
        switch output {
        case .send(let peer, let message):
            input(kiosk, .written(peer: peer, weight: output.queueWeight))
            guard links.contains(Self.link(kiosk, peer)) else { return }
            if case .deltas(let deltas) = message { received[peer, default: 0] += deltas.count }
            input(peer, .frameReceived(from: kiosk, message))
        case .sendRange(let peer, let range):
            input(kiosk, .written(peer: peer, weight: output.queueWeight))
            let log = logs[kiosk]![range.author] ?? []
            let page = log.filter { $0.seq > range.after && $0.seq <= range.through }
            guard !page.isEmpty, links.contains(Self.link(kiosk, peer)) else { return }
            received[peer, default: 0] += page.count
            input(peer, .frameReceived(from: kiosk, .deltas(page)))
        case .store(let group):
            var applied: [SignedDelta] = []
            for delta in group.deltas {
                let log = logs[kiosk]![delta.author] ?? []
                if delta.seq == UInt64(log.count) + 1 {
                    logs[kiosk]![delta.author, default: []].append(delta)
                    applied.append(delta)
                }
            }
            input(kiosk, .stored(StoreResult(id: group.id, applied: applied)))
        case .setTimer(let timer, let deadline):
            timers[kiosk, default: [:]][timer] = deadline
        case .openSession(let peer):
            guard cores[peer] != nil, !links.contains(Self.link(kiosk, peer)) else {
                input(kiosk, .openFailed(peer: peer))
                return
            }
            links.insert(Self.link(kiosk, peer))
            input(kiosk, .sessionOpened(peer: peer, initiator: kiosk))
            input(peer, .sessionOpened(peer: kiosk, initiator: kiosk))
        case .closeSession(let peer, _):
            guard links.remove(Self.link(kiosk, peer)) != nil else { return }
            input(kiosk, .sessionClosed(peer: peer))
            input(peer, .sessionClosed(peer: kiosk))
        case .pauseReading, .resumeReading, .readHeads, .readForkEvidence:
            // Stores here are instant and never cut a chain: nothing waits, nothing to read.
            break
        }
        for core in cores.values { maxSessions = max(maxSessions, core.livePeers.count) }
    }

    static func link(_ a: AuthorID, _ b: AuthorID) -> [AuthorID] {
        a.bytes.lexicographicallyPrecedes(b.bytes) ? [a, b] : [b, a]
    }

    /// The kiosks grouped by the sessions between them (one group: the overlay is connected).
    func components() -> [Set<AuthorID>] {
        var left = Set(cores.keys)
        var groups: [Set<AuthorID>] = []
        while let start = left.first {
            var group: Set<AuthorID> = [start]
            var frontier = [start]
            while let kiosk = frontier.popLast() {
                for link in links where link.contains(kiosk) {
                    for other in link where !group.contains(other) {
                        group.insert(other)
                        frontier.append(other)
                    }
                }
            }
            left.subtract(group)
            groups.append(group)
        }
        return groups
    }

    /// Whether every kiosk holds every author's log up to the longest.
    func converged() -> Bool {
        var longest: [AuthorID: Int] = [:]
        for log in logs.values {
            for (author, deltas) in log { longest[author] = max(longest[author] ?? 0, deltas.count) }
        }
        return logs.values.allSatisfy { log in longest.allSatisfy { (log[$0.key]?.count ?? 0) == $0.value } }
    }
}
