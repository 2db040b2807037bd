import MusterCore
import MusterRules

extension SyncCore {
    /// Asks for what peers hold and we lack: per author, one range at a time, from one peer (the one
    /// with the fewest requests already, `preferring` one when it has the range), so no two peers
    /// send the same deltas.
    mutating func scheduleRepairs(now: Duration, preferring preferred: AuthorID? = nil, into out: inout [SyncOutput]) {
        // Collected first: removing while iterating copied the whole table.
        let over = repairs.filter { repairIsOver($0.key, $0.value) }
        for (author, repair) in over {
            repairs[author] = nil
            if effective(author) >= repair.range.through { stalled[author] = nil }
        }
        var wants: [AuthorID: [SeqRange]] = [:]
        var load: [AuthorID: Int] = [:]
        for repair in repairs.values { load[repair.peer, default: 0] += 1 }
        // The established sessions by key (the random choice of a source below depends on the
        // order), each read in place: `sessions[peer]?.…` copied the session, and looking each up
        // again by key hashed it once per session per scan.
        var established: [(peer: AuthorID, index: [AuthorID: SessionMachine].Index)] = []
        var position = sessions.startIndex
        while position != sessions.endIndex {
            if sessions.values[position].state == .established {
                established.append((sessions.keys[position], position))
            }
            sessions.formIndex(after: &position)
        }
        established.sort { $0.peer < $1.peer }
        var held: [(peer: AuthorID, has: [AuthorID: UInt64])] = []
        var lacking: [AuthorID: UInt64] = [:]
        for (peer, index) in established {
            let has = sessions.values[index].peerHas
            held.append((peer, has))
            // Called after every store and on the peers' heads: only the claims that may be beyond
            // our heads are read, every claim only when those are not known.
            var ahead: [AuthorID] = []
            func consider(_ author: AuthorID, _ seq: UInt64) {
                guard seq > (heads[author]?.seq ?? 0) else { return }
                if ahead.count <= SessionMachine.mayBeAheadLimit { ahead.append(author) }
                guard seq > (inFlight[author] ?? 0), repairs[author] == nil, !forked.contains(author) else { return }
                if seq > (lacking[author] ?? 0) { lacking[author] = seq }
            }
            if let listed = sessions.values[index].mayBeAhead {
                for author in listed { consider(author, has[author] ?? 0) }
            } else {
                for (author, seq) in has { consider(author, seq) }
            }
            sessions.values[index].mayBeAhead = ahead.count <= SessionMachine.mayBeAheadLimit ? ahead : nil
        }
        for author in lacking.keys.sorted(by: { $0 < $1 }) {
            let mine = effective(author)
            let holders = held.filter { ($0.has[author] ?? 0) > mine }.map(\.peer)
            guard !holders.isEmpty else { continue }
            let avoid = stalled[author] ?? []
            let source: AuthorID
            if let preferred, holders.contains(preferred), !avoid.contains(preferred) {
                source = preferred
            } else {
                let fresh = holders.filter { !avoid.contains($0) }
                let pool = fresh.isEmpty ? holders : fresh
                let least = pool.map { load[$0] ?? 0 }.min() ?? 0
                let candidates = pool.filter { (load[$0] ?? 0) == least }
                source = candidates[Int(rng.next() % UInt64(candidates.count))]
                if fresh.isEmpty { stalled[author] = nil }
            }
            let theirs = held.first { $0.peer == source }?.has[author] ?? 0
            let range = SeqRange(author: author, after: mine, through: min(theirs, mine + configuration.repairChunk))
            repairs[author] = Repair(
                peer: source,
                range: range,
                deadline: now + configuration.repairTimeout,
                progress: mine
            )
            load[source, default: 0] += 1
            wants[source, default: []].append(range)
        }
        for (peer, ranges) in wants.sorted(by: { $0.key < $1.key }) {
            out.append(.send(to: peer, .want(ranges)))
        }
        if !wants.isEmpty { arm(.repair, at: now + configuration.repairTimeout, into: &out) }
    }

    /// A repair is over when its range is held, or when its peer has sent all it holds of the range
    /// (a range asked on another's word): the rest then comes from whoever holds it, now rather than
    /// after the repair timeout.
    func repairIsOver(_ author: AuthorID, _ repair: Repair) -> Bool {
        if forked.contains(author) { return true }
        let theirs = sessions.index(forKey: repair.peer).map { sessions.values[$0].peerHas[author] ?? 0 } ?? 0
        return effective(author) >= min(repair.range.through, theirs)
    }

    /// Repairs that made no progress since their deadline move to another peer; ones that did get
    /// more time.
    mutating func checkRepairs(now: Duration, into out: inout [SyncOutput]) {
        var next: Duration?
        for (author, repair) in repairs {
            let mine = effective(author)
            if mine >= repair.range.through {
                repairs[author] = nil
                stalled[author] = nil
            } else if repair.deadline > now {
                next = min(next ?? repair.deadline, repair.deadline)
            } else if mine > repair.progress {
                repairs[author]?.progress = mine
                repairs[author]?.deadline = now + configuration.repairTimeout
                next = min(next ?? now + configuration.repairTimeout, now + configuration.repairTimeout)
            } else {
                repairs[author] = nil
                stalled[author, default: []].insert(repair.peer)
            }
        }
        if let next { arm(.repair, at: next, into: &out) }
        scheduleRepairs(now: now, into: &out)
    }

    /// A peer asked for ranges: send what we hold of them, minus what was just queued to it.
    mutating func serve(_ ranges: [SeqRange], to peer: AuthorID, now: Duration, into out: inout [SyncOutput]) {
        for range in ranges {
            let held = heads[range.author]?.seq ?? 0
            let bounded = SeqRange(author: range.author, after: range.after, through: min(range.through, held))
            guard !bounded.isEmpty, var session = sessions[peer] else { continue }
            let trimmed = session.trim(bounded, now: now, window: configuration.reserveWindow)
            if !trimmed.isEmpty { session.holds(range.author, through: trimmed.through) }
            sessions[peer] = session
            guard !trimmed.isEmpty else { continue }
            // Committed lately and whole in memory: sent as a message, with no read of the store.
            if let page = recent.page(trimmed) {
                out.append(.send(to: peer, .deltas(page)))
            } else {
                out.append(.sendRange(to: peer, trimmed))
            }
        }
    }
}
